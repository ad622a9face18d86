//===- Launch.h - One kernel launch on host threads -------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A launch runs its blocks one after another; the threads of a block run
/// at the same time, one host thread each (taken from a pool that lives as
/// long as the program). Device code finds its launch and its own indices
/// through the calling thread's context.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CUDA_EMULATION_LAUNCH_H
#define ENZYME_CUDA_EMULATION_LAUNCH_H

#include "BlockSync.h"
#include "Runtime.h"

#include <csetjmp>
#include <vector>

namespace enzyme::cuda_emulation {

struct LaunchState {
  KernelHandle Kernel;
  void **Args = nullptr;
  dim3 Grid, Block;
  unsigned ThreadsPerBlock = 0;
  size_t DynamicSharedBytes = 0;
  /// The running block's index and shared memory.
  dim3 BlockIndex;
  std::vector<unsigned char> SharedMemory;
  BlockSync Sync;
};

struct ThreadContext {
  LaunchState *Launch = nullptr;
  /// The thread's linear index in its block, and its 3-D index.
  unsigned Linear = 0;
  dim3 Index;
  /// Where a failed device assertion or trap leaves the kernel.
  std::jmp_buf Abort;
};

/// The context of the calling thread; stops the program when a device
/// function runs outside a kernel.
ThreadContext &currentThread();

} // namespace enzyme::cuda_emulation

#endif // ENZYME_CUDA_EMULATION_LAUNCH_H
