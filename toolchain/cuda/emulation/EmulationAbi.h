//===- EmulationAbi.h - Retargeted device code <-> emulation runtime -*- C -*-//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The contract between `enzyme-cuda-retarget`, which turns a device
/// compilation's NVPTX module into host code, and the emulation runtime that
/// runs it. The retargeted module calls the functions declared here (by name;
/// the tool never includes this header into user code) and registers its
/// kernels and variables with one table per translation unit.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CUDA_EMULATION_ABI_H
#define ENZYME_CUDA_EMULATION_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped whenever a record below or a function's meaning changes.
#define ENZYME_CUDA_EMU_ABI_VERSION 1

/// The hardware registers that `llvm.nvvm.read.ptx.sreg.*` reads.
enum EnzymeCudaEmuRegister {
  EnzymeCudaEmuTidX,
  EnzymeCudaEmuTidY,
  EnzymeCudaEmuTidZ,
  EnzymeCudaEmuNTidX,
  EnzymeCudaEmuNTidY,
  EnzymeCudaEmuNTidZ,
  EnzymeCudaEmuCtaIdX,
  EnzymeCudaEmuCtaIdY,
  EnzymeCudaEmuCtaIdZ,
  EnzymeCudaEmuNCtaIdX,
  EnzymeCudaEmuNCtaIdY,
  EnzymeCudaEmuNCtaIdZ,
  EnzymeCudaEmuLaneId,
  EnzymeCudaEmuWarpId,
  EnzymeCudaEmuNWarpId,
  EnzymeCudaEmuWarpSize,
  EnzymeCudaEmuLaneMaskEq,
  EnzymeCudaEmuLaneMaskLt,
  EnzymeCudaEmuLaneMaskLe,
  EnzymeCudaEmuLaneMaskGt,
  EnzymeCudaEmuLaneMaskGe,
  EnzymeCudaEmuSmId,
  EnzymeCudaEmuNSmId,
};

/// `__syncthreads_count/and/or` and the plain barrier.
enum EnzymeCudaEmuBarrierKind {
  EnzymeCudaEmuBarrierPlain,
  EnzymeCudaEmuBarrierPopc,
  EnzymeCudaEmuBarrierAnd,
  EnzymeCudaEmuBarrierOr,
};

/// The modes of PTX `shfl.sync`.
enum EnzymeCudaEmuShuffleMode {
  EnzymeCudaEmuShuffleIdx,
  EnzymeCudaEmuShuffleUp,
  EnzymeCudaEmuShuffleDown,
  EnzymeCudaEmuShuffleBfly,
};

/// The modes of PTX `vote.sync`.
enum EnzymeCudaEmuVoteMode {
  EnzymeCudaEmuVoteAll,
  EnzymeCudaEmuVoteAny,
  EnzymeCudaEmuVoteUni,
  EnzymeCudaEmuVoteBallot,
};

/// The operations of PTX `redux.sync`.
enum EnzymeCudaEmuReduxOp {
  EnzymeCudaEmuReduxAdd,
  EnzymeCudaEmuReduxMin,
  EnzymeCudaEmuReduxMax,
  EnzymeCudaEmuReduxUMin,
  EnzymeCudaEmuReduxUMax,
  EnzymeCudaEmuReduxAnd,
  EnzymeCudaEmuReduxOr,
  EnzymeCudaEmuReduxXor,
};

/// One `__global__` function: \p Entry unpacks the argument array of
/// `cudaLaunchKernel` and calls the kernel.
typedef struct EnzymeCudaEmuKernel {
  const char *Name;
  void (*Entry)(void **Args);
  /// Static `__shared__` bytes the kernel and its callees use.
  uint64_t StaticSharedBytes;
} EnzymeCudaEmuKernel;

/// One `__device__`, `__constant__` or `__managed__` variable.
typedef struct EnzymeCudaEmuVariable {
  const char *Name;
  void *Address;
  uint64_t Size;
} EnzymeCudaEmuVariable;

/// A translation unit's device code. \p Id equals the contents of the
/// stand-in GPU binary that the host compilation embeds, which is how the
/// runtime pairs `__cudaRegisterFunction` calls with this table.
typedef struct EnzymeCudaEmuModule {
  uint32_t AbiVersion;
  /// CUDART_VERSION of the toolkit headers the device code was built with.
  uint32_t CudaVersion;
  /// The GPU architecture it was compiled for (75 for sm_75).
  uint32_t ComputeCapability;
  const char *Id;
  uint32_t NumKernels;
  uint32_t NumVariables;
  const EnzymeCudaEmuKernel *Kernels;
  const EnzymeCudaEmuVariable *Variables;
  /// Bytes of every static `__shared__` variable of the module; dynamic
  /// shared memory starts at this offset (16-byte aligned).
  uint64_t StaticSharedBytes;
} EnzymeCudaEmuModule;

void __cudaemu_register_module(const EnzymeCudaEmuModule *Module);
/// Registers a file of relocatable device code (its host compilation's
/// `__cudaRegisterLinkedBinary_<id>` call).
void __cudaemu_register_linked_binary(void (*RegisterGlobals)(void **),
                                      void *Wrapper);

uint32_t __cudaemu_read_register(uint32_t Register);
uint64_t __cudaemu_clock(void);
void *__cudaemu_shared_memory(void);
uint32_t __cudaemu_barrier(uint32_t Kind, uint32_t Predicate);
/// `bar.sync Id` with an id known only at run time; only 0 is emulated.
void __cudaemu_barrier_id(uint32_t Id);
void __cudaemu_warp_sync(uint32_t Mask);
/// `__activemask` at the call \p Site (an address of its own per call):
/// the lanes of the warp that reach that call together.
uint32_t __cudaemu_active_mask(const void *Site);
/// Returns the value in the low 32 bits and the PTX predicate in bit 32.
uint64_t __cudaemu_shuffle(uint32_t Mode, uint32_t Mask, uint32_t Value,
                           uint32_t LaneOrDelta, uint32_t Clamp);
uint32_t __cudaemu_vote(uint32_t Mode, uint32_t Mask, uint32_t Predicate);
/// Returns the mask of lanes holding \p Value; for match.all, bit 32 is the
/// predicate and the mask is 0 unless all lanes agree.
uint64_t __cudaemu_match(uint32_t All, uint32_t Mask, uint64_t Value);
uint32_t __cudaemu_redux(uint32_t Op, uint32_t Mask, uint32_t Value);
void __cudaemu_nanosleep(uint32_t Nanoseconds);
/// Whether \p Address is in the calling device thread's stack (`.local`).
int32_t __cudaemu_is_local(const void *Address);
/// Whether \p Address is in the running block's shared memory (`.shared`).
int32_t __cudaemu_is_shared(const void *Address);
int32_t __cudaemu_vprintf(const char *Format, const void *Arguments);
void __cudaemu_assertfail(const char *Message, const char *File, uint32_t Line,
                          const char *Function, uint64_t CharSize);
void __cudaemu_trap(void);

#ifdef __cplusplus
}
#endif

#endif // ENZYME_CUDA_EMULATION_ABI_H
