//===- Launch.cpp - One kernel launch on host threads ---------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Launch.h"

#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

namespace enzyme::cuda_emulation {

static thread_local ThreadContext *Current = nullptr;

ThreadContext &currentThread() {
  if (!Current)
    fatal("a device function ran outside a kernel launch");
  return *Current;
}

namespace {

/// Host threads that run the threads of a block. They are created once and
/// kept, since programs launch many kernels.
class WorkerPool {
public:
  /// Runs Job(0) ... Job(Count - 1) at the same time, each on its own
  /// thread, and returns when all returned.
  void run(unsigned Count, std::function<void(unsigned)> Work) {
    std::unique_lock<std::mutex> Guard(Lock);
    while (Threads.size() < Count) {
      unsigned Index = Threads.size();
      Threads.emplace_back([this, Index] { serve(Index); });
      Threads.back().detach();
    }
    Job = std::move(Work);
    Active = Count;
    Remaining = Count;
    ++Generation;
    Started.notify_all();
    Finished.wait(Guard, [&] { return Remaining == 0; });
  }

private:
  void serve(unsigned Index) {
    uint64_t Seen = 0;
    std::unique_lock<std::mutex> Guard(Lock);
    for (;;) {
      Started.wait(Guard, [&] { return Generation != Seen && Index < Active; });
      Seen = Generation;
      std::function<void(unsigned)> &Work = Job;
      Guard.unlock();
      Work(Index);
      Guard.lock();
      if (--Remaining == 0)
        Finished.notify_all();
    }
  }

  std::mutex Lock;
  std::condition_variable Started, Finished;
  std::vector<std::thread> Threads;
  std::function<void(unsigned)> Job;
  uint64_t Generation = 0;
  unsigned Active = 0, Remaining = 0;
};

/// All threads wait here between blocks; the last to arrive prepares the
/// next block before any of them starts it.
class BlockBoundary {
public:
  explicit BlockBoundary(unsigned Threads) : Threads(Threads) {}

  template <typename Prepare> void arrive(Prepare &&Next) {
    std::unique_lock<std::mutex> Guard(Lock);
    uint64_t Seen = Generation;
    if (++Arrived == Threads) {
      Next();
      Arrived = 0;
      ++Generation;
      Passed.notify_all();
      return;
    }
    Passed.wait(Guard, [&] { return Generation != Seen; });
  }

private:
  std::mutex Lock;
  std::condition_variable Passed;
  unsigned Threads;
  unsigned Arrived = 0;
  uint64_t Generation = 0;
};

WorkerPool &pool() {
  // Never destroyed: its threads may still wait when the program exits.
  static WorkerPool *Pool = new WorkerPool;
  return *Pool;
}

} // namespace

static dim3 unflatten(uint64_t Linear, dim3 Shape) {
  dim3 Index;
  Index.x = Linear % Shape.x;
  Index.y = (Linear / Shape.x) % Shape.y;
  Index.z = Linear / (uint64_t(Shape.x) * Shape.y);
  return Index;
}

cudaError_t launchKernel(const KernelHandle &Kernel, dim3 Grid, dim3 Block,
                         void **Args, size_t DynamicSharedBytes) {
  // One launch at a time: host threads that launch at once (one per
  // stream, say) share the pool, and kernels may run in any order.
  static std::mutex OneLaunch;
  std::lock_guard<std::mutex> Serial(OneLaunch);
  LaunchState Launch;
  Launch.Kernel = Kernel;
  Launch.Args = Args;
  Launch.Grid = Grid;
  Launch.Block = Block;
  Launch.ThreadsPerBlock = Block.x * Block.y * Block.z;
  Launch.DynamicSharedBytes = DynamicSharedBytes;
  Launch.SharedMemory.resize(Kernel.Module->StaticSharedBytes +
                             DynamicSharedBytes);
  uint64_t NumBlocks = uint64_t(Grid.x) * Grid.y * Grid.z;
  uint64_t NextBlock = 0;

  BlockBoundary Boundary(Launch.ThreadsPerBlock);
  auto PrepareBlock = [&] {
    if (stickyError() != cudaSuccess)
      NextBlock = NumBlocks;
    if (NextBlock >= NumBlocks)
      return;
    Launch.BlockIndex = unflatten(NextBlock, Grid);
    // Shared memory starts out as garbage on a GPU; all-ones bytes (NaN,
    // -1) make a read before the first write visible.
    std::memset(Launch.SharedMemory.data(), 0xff, Launch.SharedMemory.size());
    Launch.Sync.reset(Launch.ThreadsPerBlock, Kernel.Kernel->Name,
                      Launch.BlockIndex.x, Launch.BlockIndex.y,
                      Launch.BlockIndex.z);
  };

  pool().run(Launch.ThreadsPerBlock, [&](unsigned Linear) {
    ThreadContext Context;
    Context.Launch = &Launch;
    Context.Linear = Linear;
    Context.Index = unflatten(Linear, Block);
    Current = &Context;
    for (;;) {
      Boundary.arrive([&] {
        PrepareBlock();
        ++NextBlock;
      });
      if (NextBlock > NumBlocks)
        break;
      if (setjmp(Context.Abort) == 0)
        Kernel.Kernel->Entry(Args);
      Launch.Sync.exit(Linear);
    }
    Current = nullptr;
  });
  return stickyError();
}

} // namespace enzyme::cuda_emulation
