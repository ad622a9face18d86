//===- Runtime.h - CUDA emulation runtime internals -------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the pieces of the emulation runtime share: the registry of
/// retargeted device modules, kernel launches, and CUDA's error state.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CUDA_EMULATION_RUNTIME_H
#define ENZYME_CUDA_EMULATION_RUNTIME_H

#include "../EmulationAbi.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace enzyme::cuda_emulation {

/// A kernel found by the host stub that `__cudaRegisterFunction` named.
struct KernelHandle {
  const EnzymeCudaEmuKernel *Kernel = nullptr;
  const EnzymeCudaEmuModule *Module = nullptr;
};

/// The device kernel behind \p HostStub; Kernel is null when no module
/// registered it.
KernelHandle findKernel(const void *HostStub);

/// The device storage of the variable whose host shadow is \p HostVariable,
/// or null.
void *findVariable(const void *HostVariable, size_t *Size);

/// The highest architecture a registered module was compiled for (75 for
/// sm_75), which the emulated device reports as its compute capability.
uint32_t deviceComputeCapability();

/// Runs \p Kernel on host threads and returns when every block finished.
cudaError_t launchKernel(const KernelHandle &Kernel, dim3 Grid, dim3 Block,
                         void **Args, size_t DynamicSharedBytes);

/// Records \p Error as the calling host thread's last error and returns it;
/// a sticky error (a failed kernel) is returned from then on.
cudaError_t setError(cudaError_t Error);
/// Marks the emulated device as failed, as a device-side assertion does.
void setStickyError(cudaError_t Error);
/// The sticky error, or cudaSuccess.
cudaError_t stickyError();

/// Prints "CUDA emulation: <message>" and stops the program: the state it
/// found cannot continue (a deadlock, a corrupt module table).
[[noreturn]] void fatal(const char *Format, ...)
    __attribute__((format(printf, 1, 2)));

} // namespace enzyme::cuda_emulation

#endif // ENZYME_CUDA_EMULATION_RUNTIME_H
