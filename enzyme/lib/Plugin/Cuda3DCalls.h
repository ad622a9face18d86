//===- Cuda3DCalls.h - The CUDA runtime's 3D memory calls -------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// cudaMalloc3D, cudaMemset3D and cudaMemcpy3D (and their Async forms) name
/// memory by structs: the first two take them by value, which the
/// custom-gradient ABI cannot pair with shadows, and cudaMemcpy3D by
/// pointer, with the pointers that carry shadows inside. In differentiated
/// host code each call becomes a call of a run-time function
/// (runtime/CudaMemory.c, runtime/CudaCopies.c) that takes the structs'
/// fields as scalars and those pointers beside them, so that the engine passes their shadows;
/// CudaRuntimeCalls.cpp gives those functions their derivatives.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_CUDA3DCALLS_H
#define ENZYME_PLUGIN_CUDA3DCALLS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace enzyme {

/// The run-time copies that stand for cudaMemcpy3D and cudaMemcpy3DAsync
/// start so; each takes (dst, src, parms[, stream]).
inline constexpr char Memcpy3DPrefix[] = "__enzyme_rt_cuda_memcpy_3d_";
inline constexpr char Memcpy3DAsyncPrefix[] =
    "__enzyme_rt_cuda_memcpy_3d_async_";

/// Replaces \p Call, a call of one of the 3D calls, with the call of its
/// run-time function (a cudaMemcpy3D with the untyped copy, which
/// CudaRuntimeCalls.cpp types); returns the new call, or null where \p Call
/// is none of them or not in the form the toolkit's headers give it.
llvm::CallBase *lower3DCall(llvm::CallBase &Call);

/// The pointer values that the program stores as the destination
/// (\p Destination) or source pointer of the cudaMemcpy3DParms that
/// \p Copy3D, a run-time 3D copy, reads, in its function: through struct
/// copies and make_cudaPitchedPtr, or, where the program writes none
/// (cudaMalloc3D filled it), its loads of that pointer. Empty when none is
/// found.
llvm::SmallVector<llvm::Value *, 4> pointersIn3DParms(llvm::CallBase &Copy3D,
                                                      bool Destination);

} // namespace enzyme

#endif // ENZYME_PLUGIN_CUDA3DCALLS_H
