//===- GpuTarget.h - Whether a module is GPU device code --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GPU device code differs from host code in what generated code may use:
/// no thread-local storage, no C library beyond malloc/free/printf, no link
/// step that runs the engine, and threads that share memory by default.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_GPUTARGET_H
#define ENZYME_CORE_GPUTARGET_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

namespace enzyme {

/// On helpers the engine defines for device code (a shuffle of a double):
/// inlined into their callers once AD is done.
inline constexpr const char *InlinedAfterAD = "enzyme-inline-after-ad";

/// NVPTX's address space of global memory (`cudaMalloc`'s, `__device__`).
inline constexpr unsigned GlobalAddressSpace = 1;

/// NVPTX's address space of shared memory (`__shared__`).
inline constexpr unsigned SharedAddressSpace = 3;

/// NVPTX's address space of constant memory (`__constant__`), which kernels
/// only read.
inline constexpr unsigned ConstantAddressSpace = 4;

inline bool isGpuTarget(const llvm::Triple &T) {
  return T.isNVPTX() || T.isAMDGPU() || T.isSPIR() || T.isSPIRV();
}

/// \p M is device code of a GPU (NVPTX, AMDGPU, SPIR-V).
inline bool isGpuModule(const llvm::Module &M) {
  return isGpuTarget(llvm::Triple(M.getTargetTriple()));
}

/// \p M is CUDA device code (NVPTX): math through libdevice, a thread's
/// stack in PTX's local state space, shared memory in address space 3.
inline bool isCudaModule(const llvm::Module &M) {
  return llvm::Triple(M.getTargetTriple()).isNVPTX();
}

/// \p I reads where its thread sits in the launch: a thread, block or lane
/// index, or the size of a block, grid or warp. Such a value is the same
/// wherever the thread reads it, so the reverse pass reads it again rather
/// than recording it (which makes a derivative's reverse half depend on
/// running in the same thread of a launch of the same shape as its forward
/// half, as split mode across two launches does).
bool readsThreadPosition(const llvm::Instruction &I);

/// Asks whether the generic address \p Ptr lies in the state space that
/// \p Query (an `nvvm_isspacep_*` intrinsic) names, marked as the engine's
/// own question about a shadow (Plugin/DeviceDerivativeInlining.h answers
/// such questions where the address is known; the program's are its own).
llvm::Value *emitShadowSpaceQuery(llvm::IRBuilder<> &B,
                                  llvm::Intrinsic::ID Query, llvm::Value *Ptr,
                                  const llvm::Twine &Name = "");

/// Whether \p I is a query emitShadowSpaceQuery made.
bool isShadowSpaceQuery(const llvm::Instruction &I);

/// \p I waits for every thread of its CUDA block (__syncthreads and the
/// variants that vote).
bool isBlockBarrier(const llvm::Instruction &I);

/// \p I waits for the other threads of its block or warp (__syncthreads,
/// __syncwarp, a numbered barrier).
bool isThreadBarrier(const llvm::Instruction &I);

/// For \p I in device code, which orders memory between the blocks of a
/// launch (`__threadfence()`, a device- or system-scope fence, an atomic
/// load or store with acquire or release ordering beyond its block (a flag
/// another block waits for), inline assembly that
/// does so: cooperative groups' grid synchronisation, libcu++'s device-scope
/// atomics): what it is, as an error message says it; empty otherwise.
/// A reverse pass runs the blocks' derivatives without that order, so the
/// adjoints that one block's derivative hands another would race.
std::string describeCrossBlockOrdering(const llvm::Instruction &I);

/// The barrier that mirrors \p Barrier in a reverse pass: the same threads
/// wait at it (its result, a vote over the block, is not needed there).
void emitMirroredBarrier(
    llvm::IRBuilder<> &B, const llvm::CallBase &Barrier,
    llvm::function_ref<llvm::Value *(llvm::Value *)> Primal);

} // namespace enzyme

#endif // ENZYME_CORE_GPUTARGET_H
