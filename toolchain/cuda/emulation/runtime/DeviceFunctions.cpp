//===- DeviceFunctions.cpp - What retargeted device code calls ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The functions of EmulationAbi.h: special registers, barriers and warp
/// collectives of the calling thread's block, device printf and assert.
///
//===----------------------------------------------------------------------===//

#include "Launch.h"

#include <bitset>
#include <chrono>
#include <cinttypes>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>

using namespace enzyme::cuda_emulation;

extern "C" {

uint32_t __cudaemu_read_register(uint32_t Register) {
  ThreadContext &T = currentThread();
  const LaunchState &L = *T.Launch;
  uint32_t Lane = T.Linear % WarpSize;
  switch (Register) {
  case EnzymeCudaEmuTidX:
    return T.Index.x;
  case EnzymeCudaEmuTidY:
    return T.Index.y;
  case EnzymeCudaEmuTidZ:
    return T.Index.z;
  case EnzymeCudaEmuNTidX:
    return L.Block.x;
  case EnzymeCudaEmuNTidY:
    return L.Block.y;
  case EnzymeCudaEmuNTidZ:
    return L.Block.z;
  case EnzymeCudaEmuCtaIdX:
    return L.BlockIndex.x;
  case EnzymeCudaEmuCtaIdY:
    return L.BlockIndex.y;
  case EnzymeCudaEmuCtaIdZ:
    return L.BlockIndex.z;
  case EnzymeCudaEmuNCtaIdX:
    return L.Grid.x;
  case EnzymeCudaEmuNCtaIdY:
    return L.Grid.y;
  case EnzymeCudaEmuNCtaIdZ:
    return L.Grid.z;
  case EnzymeCudaEmuLaneId:
    return Lane;
  case EnzymeCudaEmuWarpId:
    return T.Linear / WarpSize;
  case EnzymeCudaEmuNWarpId:
    return (L.ThreadsPerBlock + WarpSize - 1) / WarpSize;
  case EnzymeCudaEmuWarpSize:
    return WarpSize;
  case EnzymeCudaEmuLaneMaskEq:
    return 1u << Lane;
  case EnzymeCudaEmuLaneMaskLt:
    return (1u << Lane) - 1;
  case EnzymeCudaEmuLaneMaskLe:
    return Lane == 31 ? ~0u : (2u << Lane) - 1;
  case EnzymeCudaEmuLaneMaskGt:
    return Lane == 31 ? 0u : ~((2u << Lane) - 1);
  case EnzymeCudaEmuLaneMaskGe:
    return ~((1u << Lane) - 1);
  case EnzymeCudaEmuSmId:
    return 0;
  case EnzymeCudaEmuNSmId:
    return 1;
  }
  fatal("device code read an unknown special register %u", Register);
}

uint64_t __cudaemu_clock(void) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void *__cudaemu_shared_memory(void) {
  return currentThread().Launch->SharedMemory.data();
}

uint32_t __cudaemu_barrier(uint32_t Kind, uint32_t Predicate) {
  ThreadContext &T = currentThread();
  return T.Launch->Sync.barrier(T.Linear, Kind, Predicate != 0);
}

void __cudaemu_barrier_id(uint32_t Id) {
  if (Id != 0)
    fatal("named barrier %u (bar.sync with an id other than 0) is not "
          "emulated; only __syncthreads and barrier 0 are",
          Id);
  ThreadContext &T = currentThread();
  T.Launch->Sync.barrier(T.Linear, EnzymeCudaEmuBarrierPlain, false);
}

void __cudaemu_warp_sync(uint32_t Mask) {
  ThreadContext &T = currentThread();
  uint64_t Values[WarpSize];
  T.Launch->Sync.gather(T.Linear, Mask, 0, Values);
}

uint32_t __cudaemu_active_mask(const void *Site) {
  ThreadContext &T = currentThread();
  return T.Launch->Sync.convergedLanes(T.Linear,
                                       reinterpret_cast<uintptr_t>(Site));
}

/// PTX shfl.sync: `Clamp` packs the segment mask (bits 8-12) and the clamp
/// lane (bits 0-4), which is how `width` reaches the instruction.
uint64_t __cudaemu_shuffle(uint32_t Mode, uint32_t Mask, uint32_t Value,
                           uint32_t LaneOrDelta, uint32_t Clamp) {
  ThreadContext &T = currentThread();
  uint64_t Values[WarpSize];
  uint32_t Participants = T.Launch->Sync.gather(T.Linear, Mask, Value, Values);
  uint32_t Lane = T.Linear % WarpSize;
  uint32_t B = LaneOrDelta & 0x1f, C = Clamp & 0x1f;
  uint32_t SegMask = (Clamp >> 8) & 0x1f;
  uint32_t MaxLane = (Lane & SegMask) | (C & ~SegMask);
  uint32_t MinLane = Lane & SegMask;
  int32_t Source;
  bool InRange;
  switch (Mode) {
  case EnzymeCudaEmuShuffleUp:
    Source = int32_t(Lane) - int32_t(B);
    InRange = Source >= int32_t(MaxLane);
    break;
  case EnzymeCudaEmuShuffleDown:
    Source = Lane + B;
    InRange = Source <= int32_t(MaxLane);
    break;
  case EnzymeCudaEmuShuffleBfly:
    Source = Lane ^ B;
    InRange = Source <= int32_t(MaxLane);
    break;
  default:
    Source = MinLane | (B & ~SegMask);
    InRange = Source <= int32_t(MaxLane);
    break;
  }
  if (!InRange)
    Source = Lane;
  // A source lane that did not take part gives an undefined value on a GPU;
  // the caller's own value is as good as any.
  uint32_t Result =
      (Participants >> Source) & 1 ? uint32_t(Values[Source]) : Value;
  return uint64_t(Result) | (uint64_t(InRange) << 32);
}

uint32_t __cudaemu_vote(uint32_t Mode, uint32_t Mask, uint32_t Predicate) {
  ThreadContext &T = currentThread();
  uint64_t Values[WarpSize];
  uint32_t Participants =
      T.Launch->Sync.gather(T.Linear, Mask, Predicate != 0, Values);
  uint32_t Ballot = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (((Participants >> L) & 1) && Values[L])
      Ballot |= 1u << L;
  switch (Mode) {
  case EnzymeCudaEmuVoteAll:
    return Ballot == Participants;
  case EnzymeCudaEmuVoteAny:
    return Ballot != 0;
  case EnzymeCudaEmuVoteUni:
    return Ballot == 0 || Ballot == Participants;
  default:
    return Ballot;
  }
}

uint64_t __cudaemu_match(uint32_t All, uint32_t Mask, uint64_t Value) {
  ThreadContext &T = currentThread();
  uint64_t Values[WarpSize];
  uint32_t Participants = T.Launch->Sync.gather(T.Linear, Mask, Value, Values);
  uint32_t Same = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (((Participants >> L) & 1) && Values[L] == Value)
      Same |= 1u << L;
  if (!All)
    return Same;
  bool Agree = Same == Participants;
  return (Agree ? uint64_t(Participants) : 0) | (uint64_t(Agree) << 32);
}

uint32_t __cudaemu_redux(uint32_t Op, uint32_t Mask, uint32_t Value) {
  ThreadContext &T = currentThread();
  uint64_t Values[WarpSize];
  uint32_t Participants = T.Launch->Sync.gather(T.Linear, Mask, Value, Values);
  bool First = true;
  uint32_t Result = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!((Participants >> L) & 1))
      continue;
    uint32_t V = uint32_t(Values[L]);
    if (First) {
      Result = V;
      First = false;
      continue;
    }
    switch (Op) {
    case EnzymeCudaEmuReduxAdd:
      Result += V;
      break;
    case EnzymeCudaEmuReduxMin:
      Result = int32_t(V) < int32_t(Result) ? V : Result;
      break;
    case EnzymeCudaEmuReduxMax:
      Result = int32_t(V) > int32_t(Result) ? V : Result;
      break;
    case EnzymeCudaEmuReduxUMin:
      Result = V < Result ? V : Result;
      break;
    case EnzymeCudaEmuReduxUMax:
      Result = V > Result ? V : Result;
      break;
    case EnzymeCudaEmuReduxAnd:
      Result &= V;
      break;
    case EnzymeCudaEmuReduxOr:
      Result |= V;
      break;
    default:
      Result ^= V;
      break;
    }
  }
  return Result;
}

int32_t __cudaemu_is_local(const void *Address) {
  // A device thread's local memory is the stack of the host thread that
  // runs it; its bounds are looked up once per host thread.
  static thread_local const char *Low = nullptr, *High = nullptr;
  if (!High) {
    pthread_attr_t Attributes;
    void *Base = nullptr;
    size_t Size = 0;
    if (pthread_getattr_np(pthread_self(), &Attributes) == 0) {
      pthread_attr_getstack(&Attributes, &Base, &Size);
      pthread_attr_destroy(&Attributes);
    }
    Low = static_cast<const char *>(Base);
    High = Low + Size;
  }
  auto *P = static_cast<const char *>(Address);
  return P >= Low && P < High;
}

int32_t __cudaemu_is_shared(const void *Address) {
  const std::vector<unsigned char> &Shared =
      currentThread().Launch->SharedMemory;
  auto *P = static_cast<const unsigned char *>(Address);
  return !Shared.empty() && P >= Shared.data() &&
         P < Shared.data() + Shared.size();
}

/// 16-byte accesses that PTX makes as one (CUB keeps a tile's status beside
/// its value so, for blocks that wait on each other): under one lock per
/// stripe of addresses, so a reader sees both halves of one write.
static std::mutex &stripeOf(const void *Address) {
  static std::mutex Stripes[64];
  return Stripes[(reinterpret_cast<uintptr_t>(Address) >> 4) % 64];
}
void __cudaemu_load128(const void *Address, uint64_t *Out) {
  std::lock_guard<std::mutex> Guard(stripeOf(Address));
  std::memcpy(Out, Address, 16);
}
void __cudaemu_store128(void *Address, uint64_t Low, uint64_t High) {
  uint64_t Both[2] = {Low, High};
  std::lock_guard<std::mutex> Guard(stripeOf(Address));
  std::memcpy(Address, Both, 16);
}

void __cudaemu_nanosleep(uint32_t Nanoseconds) {
  std::this_thread::sleep_for(std::chrono::nanoseconds(Nanoseconds));
}

/// PTX `exit`: the thread ends as if it returned from the kernel.
void __cudaemu_exit(void) { std::longjmp(currentThread().Abort, 1); }

void __cudaemu_trap(void) {
  std::fprintf(stderr, "CUDA emulation: a device thread executed a trap\n");
  setStickyError(cudaErrorLaunchFailure);
  std::longjmp(currentThread().Abort, 1);
}

void __cudaemu_assertfail(const char *Message, const char *File, uint32_t Line,
                          const char *Function, uint64_t) {
  ThreadContext &T = currentThread();
  const LaunchState &L = *T.Launch;
  std::fflush(stdout);
  // The message a GPU prints for a failed device assert.
  std::fprintf(stderr,
               "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion "
               "`%s` failed.\n",
               File, Line, Function, L.BlockIndex.x, L.BlockIndex.y,
               L.BlockIndex.z, T.Index.x, T.Index.y, T.Index.z, Message);
  setStickyError(cudaErrorAssert);
  std::longjmp(T.Abort, 1);
}

/// Device printf receives the format and a buffer holding each argument at
/// its natural alignment (float promoted to double, small integers to int).
int32_t __cudaemu_vprintf(const char *Format, const void *Arguments) {
  const auto *Buffer = static_cast<const unsigned char *>(Arguments);
  size_t Offset = 0;
  auto Next = [&](size_t Size, void *Out) {
    Offset = (Offset + Size - 1) / Size * Size;
    std::memcpy(Out, Buffer + Offset, Size);
    Offset += Size;
  };
  std::string Out;
  int32_t Count = 0;
  for (const char *P = Format; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    // One conversion: flags, width, precision, length, conversion.
    const char *Start = P++;
    std::string Spec = "%";
    int Star[2];
    unsigned Stars = 0;
    while (*P && std::strchr("-+ #0", *P))
      Spec += *P++;
    for (int Part = 0; Part < 2; ++Part) {
      if (Part == 1) {
        if (*P != '.')
          break;
        Spec += *P++;
      }
      if (*P == '*') {
        Next(4, &Star[Stars++]);
        Spec += *P++;
      }
      while (*P >= '0' && *P <= '9')
        Spec += *P++;
    }
    int Long = 0;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'q' || *P == 'j' || *P == 'z' || *P == 't' ||
          *P == 'L')
        ++Long;
      Spec += *P++;
    }
    char Conversion = *P;
    if (!Conversion) {
      Out += Start;
      break;
    }
    Spec += *P++;
    char Piece[512];
    auto Print = [&](auto Value) {
      if (Stars == 0)
        std::snprintf(Piece, sizeof Piece, Spec.c_str(), Value);
      else if (Stars == 1)
        std::snprintf(Piece, sizeof Piece, Spec.c_str(), Star[0], Value);
      else
        std::snprintf(Piece, sizeof Piece, Spec.c_str(), Star[0], Star[1],
                      Value);
      Out += Piece;
    };
    ++Count;
    if (std::strchr("diouxXc", Conversion)) {
      if (Long) {
        long long V;
        Next(8, &V);
        Print(V);
      } else {
        int V;
        Next(4, &V);
        Print(V);
      }
    } else if (std::strchr("fFeEgGaA", Conversion)) {
      double V;
      Next(8, &V);
      if (Long && Spec.find('L') != std::string::npos)
        Spec.erase(Spec.find('L'), 1);
      Print(V);
    } else if (Conversion == 's') {
      const char *V;
      Next(8, &V);
      Print(V ? V : "(null)");
    } else if (Conversion == 'p') {
      void *V;
      Next(8, &V);
      Print(V);
    } else {
      // %n and unknown conversions print nothing, as on the device.
      --Count;
    }
  }
  std::fwrite(Out.data(), 1, Out.size(), stdout);
  std::fflush(stdout);
  return Count;
}

} // extern "C"
