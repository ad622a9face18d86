//===- BlockSync.h - Barriers and warp collectives of one block -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The threads of an emulated block are host threads that really run at the
/// same time, so a missing `__syncthreads` or a race shows up as it would on
/// a GPU. This class is every point where they wait for each other:
/// `__syncthreads` (and its count/and/or forms) and the warp collectives
/// (`__shfl_sync`, `__ballot_sync`, `__syncwarp`, ...), which all gather one
/// value per lane. A thread that returns from the kernel leaves every
/// barrier, as on Volta and later GPUs. When every live thread waits and
/// none can release the others, the block is deadlocked and the program
/// stops with a report instead of hanging.
///
/// `__activemask` names the lanes that run together with the caller. Lanes
/// of an emulated warp run on their own, so the lanes that reach the same
/// call (the same time they reach it) meet there: a lane waits until each
/// other live lane of its warp has arrived too, or waits somewhere else
/// (a barrier, a warp collective, another such call), or returned. Lanes
/// that took another branch are then not in the mask, as on a GPU.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CUDA_EMULATION_BLOCKSYNC_H
#define ENZYME_CUDA_EMULATION_BLOCKSYNC_H

#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace enzyme::cuda_emulation {

inline constexpr unsigned WarpSize = 32;

class BlockSync {
public:
  /// Prepares for block (\p X, \p Y, \p Z) of \p Kernel, of \p Threads
  /// threads; the names only appear in reports.
  void reset(unsigned Threads, const char *Kernel, unsigned X, unsigned Y,
             unsigned Z);

  /// `__syncthreads` and its reducing forms for \p Thread; returns the
  /// popc/and/or result.
  uint32_t barrier(unsigned Thread, uint32_t Kind, bool Predicate);

  /// The lanes' values of a warp collective: waits until every live lane
  /// of \p Mask arrived with the same mask, then copies their values into
  /// \p Values (indexed by lane) and returns the mask of lanes that took
  /// part.
  uint32_t gather(unsigned Thread, uint32_t Mask, uint64_t Value,
                  uint64_t Values[WarpSize]);

  /// `__activemask` at the call \p Site: the lanes of \p Thread's warp
  /// that reach it together.
  uint32_t convergedLanes(unsigned Thread, uintptr_t Site);

  /// \p Thread returned from the kernel: it no longer takes part.
  void exit(unsigned Thread);

private:
  struct Rendezvous {
    uint32_t Mask = 0;
    uint32_t Expected = 0;
    uint32_t Arrived = 0;
    unsigned Waiters = 0;
    unsigned Departed = 0;
    bool Complete = false;
    uint64_t Values[WarpSize] = {};
  };

  /// The lanes that met at one `__activemask` call.
  struct Convergence {
    uintptr_t Site = 0;
    /// How many times each of them reached the call before.
    uint64_t Visit = 0;
    uint32_t Arrived = 0;
    unsigned Departed = 0;
    bool Complete = false;
  };

  void completeBarrier();
  void complete(Rendezvous &R, unsigned Warp);
  /// \p Thread is about to wait (with the lock held): it is marked
  /// waiting, the convergences of its warp that no other lane can join
  /// complete, and a block where every thread waits is reported.
  void startWaiting(unsigned Thread);
  /// Completes the convergences of \p Warp whose other lanes all wait or
  /// returned.
  void settleConvergences(unsigned Warp);
  /// Called with the lock held by a thread about to wait.
  void checkDeadlock();
  /// "kernel 'name', block (x,y,z)", formatted only for a report.
  std::string describe() const;

  std::mutex Lock;
  /// Barriers wake the block; a warp's collectives and convergences wake
  /// the warp alone (waking the whole block for each was most of the cost
  /// of warp-heavy code).
  std::condition_variable Released;
  std::vector<std::condition_variable> WarpReleased;
  const char *Kernel = "";
  unsigned BlockIndex[3] = {};
  unsigned Live = 0;
  unsigned Waiting = 0;

  unsigned BarrierArrived = 0;
  unsigned BarrierWaiters = 0;
  uint64_t BarrierGeneration = 0;
  uint32_t BarrierCount = 0;
  bool BarrierAll = true, BarrierAny = false;
  uint32_t ResultCount = 0;
  bool ResultAll = true, ResultAny = false;

  std::vector<uint32_t> LiveLaneMasks;
  /// Per warp, the lanes waiting at a barrier, a collective or a
  /// convergence.
  std::vector<uint32_t> WaitingLaneMasks;
  std::vector<std::list<Rendezvous>> Warps;
  std::vector<std::list<Convergence>> Convergences;
  /// Per thread, how many times it reached each `__activemask` call.
  std::vector<std::unordered_map<uintptr_t, uint64_t>> Visits;
};

} // namespace enzyme::cuda_emulation

#endif // ENZYME_CUDA_EMULATION_BLOCKSYNC_H
