//===- BlockSync.cpp - Barriers and warp collectives of one block ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "BlockSync.h"
#include "Runtime.h"

#include "../EmulationAbi.h"

#include <bitset>
#include <cstdio>

namespace enzyme::cuda_emulation {

void BlockSync::reset(unsigned Threads, const char *KernelName, unsigned X,
                      unsigned Y, unsigned Z) {
  std::lock_guard<std::mutex> Guard(Lock);
  Kernel = KernelName;
  BlockIndex[0] = X;
  BlockIndex[1] = Y;
  BlockIndex[2] = Z;
  Live = Threads;
  Waiting = 0;
  BarrierArrived = BarrierWaiters = 0;
  BarrierCount = 0;
  BarrierAll = true;
  BarrierAny = false;
  unsigned NumWarps = (Threads + WarpSize - 1) / WarpSize;
  LiveLaneMasks.assign(NumWarps, ~0u);
  if (Threads % WarpSize)
    LiveLaneMasks.back() = (1u << (Threads % WarpSize)) - 1;
  Warps.assign(NumWarps, {});
  WaitingLaneMasks.assign(NumWarps, 0);
  Convergences.assign(NumWarps, {});
  if (WarpReleased.size() < NumWarps)
    WarpReleased = std::vector<std::condition_variable>(NumWarps);
  Visits.assign(Threads, {});
}

std::string BlockSync::describe() const {
  char Text[256];
  std::snprintf(Text, sizeof Text, "kernel '%s', block (%u,%u,%u)", Kernel,
                BlockIndex[0], BlockIndex[1], BlockIndex[2]);
  return Text;
}

void BlockSync::startWaiting(unsigned Thread) {
  unsigned Warp = Thread / WarpSize;
  ++Waiting;
  WaitingLaneMasks[Warp] |= 1u << (Thread % WarpSize);
  settleConvergences(Warp);
  checkDeadlock();
}

void BlockSync::settleConvergences(unsigned Warp) {
  for (Convergence &C : Convergences[Warp]) {
    if (C.Complete)
      continue;
    // Every other live lane waits elsewhere: none of them can come.
    uint32_t Free = LiveLaneMasks[Warp] & ~C.Arrived & ~WaitingLaneMasks[Warp];
    if (Free)
      continue;
    C.Complete = true;
    Waiting -= std::bitset<32>(C.Arrived).count();
    WaitingLaneMasks[Warp] &= ~C.Arrived;
    WarpReleased[Warp].notify_all();
  }
}

uint32_t BlockSync::convergedLanes(unsigned Thread, uintptr_t Site) {
  unsigned Warp = Thread / WarpSize;
  uint32_t Lane = 1u << (Thread % WarpSize);
  std::unique_lock<std::mutex> Guard(Lock);
  uint64_t Visit = Visits[Thread][Site]++;
  std::list<Convergence> &Pending = Convergences[Warp];
  Convergence *C = nullptr;
  for (Convergence &Candidate : Pending)
    if (!Candidate.Complete && Candidate.Site == Site &&
        Candidate.Visit == Visit) {
      C = &Candidate;
      break;
    }
  if (!C) {
    C = &Pending.emplace_back();
    C->Site = Site;
    C->Visit = Visit;
  }
  C->Arrived |= Lane;
  startWaiting(Thread);
  WarpReleased[Warp].wait(Guard, [&] { return C->Complete; });
  uint32_t Participants = C->Arrived;
  if (++C->Departed == std::bitset<32>(Participants).count())
    Pending.remove_if([&](const Convergence &Done) { return &Done == C; });
  return Participants;
}

void BlockSync::completeBarrier() {
  for (uint32_t &Waits : WaitingLaneMasks)
    Waits = 0;
  ResultCount = BarrierCount;
  ResultAll = BarrierAll;
  ResultAny = BarrierAny;
  BarrierCount = 0;
  BarrierAll = true;
  BarrierAny = false;
  BarrierArrived = 0;
  Waiting -= BarrierWaiters;
  BarrierWaiters = 0;
  ++BarrierGeneration;
  Released.notify_all();
}

void BlockSync::complete(Rendezvous &R, unsigned Warp) {
  R.Complete = true;
  WaitingLaneMasks[Warp] &= ~R.Arrived;
  Waiting -= R.Waiters;
  R.Waiters = 0;
  WarpReleased[Warp].notify_all();
}

void BlockSync::checkDeadlock() {
  if (Waiting < Live)
    return;
  std::string Warp;
  for (unsigned W = 0; W < Warps.size(); ++W)
    for (const Rendezvous &R : Warps[W])
      if (!R.Complete) {
        char Line[160];
        std::snprintf(Line, sizeof Line,
                      "\n  warp %u: a warp operation with mask 0x%08x has "
                      "lanes 0x%08x of 0x%08x",
                      W, R.Mask, R.Arrived, R.Expected);
        Warp += Line;
      }
  fatal("deadlock in %s: all %u running threads wait (%u at __syncthreads, "
        "%u at warp operations such as __shfl_sync or __syncwarp) and none "
        "can release the others; a barrier is inside a branch that some "
        "threads do not take, or a warp mask names lanes that never get "
        "there%s",
        describe().c_str(), Live, BarrierWaiters, Waiting - BarrierWaiters,
        Warp.c_str());
}

uint32_t BlockSync::barrier(unsigned Thread, uint32_t Kind, bool Predicate) {
  std::unique_lock<std::mutex> Guard(Lock);
  BarrierCount += Predicate;
  BarrierAll = BarrierAll && Predicate;
  BarrierAny = BarrierAny || Predicate;
  if (++BarrierArrived == Live) {
    completeBarrier();
  } else {
    uint64_t Generation = BarrierGeneration;
    ++BarrierWaiters;
    startWaiting(Thread);
    Released.wait(Guard, [&] { return BarrierGeneration != Generation; });
  }
  switch (Kind) {
  case EnzymeCudaEmuBarrierPopc:
    return ResultCount;
  case EnzymeCudaEmuBarrierAnd:
    return ResultAll;
  case EnzymeCudaEmuBarrierOr:
    return ResultAny;
  default:
    return 0;
  }
}

uint32_t BlockSync::gather(unsigned Thread, uint32_t Mask, uint64_t Value,
                           uint64_t Values[WarpSize]) {
  unsigned Warp = Thread / WarpSize;
  uint32_t Lane = 1u << (Thread % WarpSize);
  if (!(Mask & Lane))
    fatal("in %s, thread %u runs a warp operation whose mask 0x%08x does "
          "not include its own lane %u",
          describe().c_str(), Thread, Mask, Thread % WarpSize);

  std::unique_lock<std::mutex> Guard(Lock);
  std::list<Rendezvous> &Pending = Warps[Warp];
  Rendezvous *R = nullptr;
  for (Rendezvous &Candidate : Pending)
    if (!Candidate.Complete && Candidate.Mask == Mask &&
        !(Candidate.Arrived & Lane)) {
      R = &Candidate;
      break;
    }
  if (!R) {
    R = &Pending.emplace_back();
    R->Mask = Mask;
    R->Expected = Mask & LiveLaneMasks[Warp];
  }
  R->Values[Thread % WarpSize] = Value;
  R->Arrived |= Lane;
  if (R->Arrived == R->Expected) {
    complete(*R, Warp);
  } else {
    ++R->Waiters;
    startWaiting(Thread);
    WarpReleased[Warp].wait(Guard, [&] { return R->Complete; });
  }
  uint32_t Participants = R->Arrived;
  for (unsigned L = 0; L < WarpSize; ++L)
    Values[L] = R->Values[L];
  if (++R->Departed == std::bitset<32>(Participants).count())
    Pending.remove_if([&](const Rendezvous &Done) { return &Done == R; });
  return Participants;
}

void BlockSync::exit(unsigned Thread) {
  std::lock_guard<std::mutex> Guard(Lock);
  unsigned Warp = Thread / WarpSize;
  uint32_t Lane = 1u << (Thread % WarpSize);
  --Live;
  LiveLaneMasks[Warp] &= ~Lane;
  if (BarrierArrived != 0 && BarrierArrived == Live)
    completeBarrier();
  for (Rendezvous &R : Warps[Warp])
    if (!R.Complete && (R.Expected & Lane)) {
      R.Expected &= ~Lane;
      if (R.Arrived == R.Expected)
        complete(R, Warp);
    }
  // One lane fewer that could still come to a convergence.
  settleConvergences(Warp);
  if (Live != 0)
    checkDeadlock();
}

} // namespace enzyme::cuda_emulation
