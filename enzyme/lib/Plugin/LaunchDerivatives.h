//===- LaunchDerivatives.h - Host code that launches kernels ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Differentiating host code that launches CUDA kernels
/// (Core/KernelLaunches.h): the scan that lists the kernels, the derivative
/// kernels in the device compilation, the custom gradients of their host stubs
/// in the host compilation, and those of the runtime's memory calls.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_LAUNCHDERIVATIVES_H
#define ENZYME_PLUGIN_LAUNCHDERIVATIVES_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace enzyme {

class ForwardModeGenerator;
class ReverseModeGenerator;

/// The requests of one mode: reverse (`__enzyme_autodiff`, split mode) or
/// forward (`__enzyme_fwddiff`).
enum class RequestFamily { Reverse, Forward };

/// The functions that inactive-function registrations of \p M name, and
/// custom-gradient (reverse) or custom-derivative (forward) ones: the
/// engine does not look inside them in that mode.
llvm::SmallPtrSet<const llvm::Function *, 8>
registeredFunctions(llvm::Module &M,
                    RequestFamily Family = RequestFamily::Reverse);

/// The functions of host module \p M whose bodies its requests of
/// \p Family differentiate: those reached through direct calls (and
/// function pointers passed to calls), up to functions with custom
/// derivatives, inactive ones and kernel stubs, which are left out.
llvm::SetVector<llvm::Function *> functionsRequestsReach(llvm::Module &M,
                                                         RequestFamily Family);
/// Those of both families.
llvm::SetVector<llvm::Function *> functionsRequestsReach(llvm::Module &M);

/// Host code: a cudaLaunchKernel or cudaLaunchKernelEx(C) of a kernel with
/// a derivative, in one of \p Reached (functionsRequestsReach), becomes the
/// `<<<...>>>` launch it stands for, whose stub the custom derivatives
/// differentiate (DirectLaunches.cpp).
void lowerDirectLaunches(llvm::Module &M,
                         llvm::ArrayRef<llvm::Function *> Reached);

/// Host code: gives the CUDA runtime's memory calls (cudaMalloc, cudaFree,
/// cudaMemset, cudaMemcpy...) in \p Reached (the functions that requests
/// reach, which lowerDirectLaunches leaves as they were) custom
/// gradients (runtime/CudaCopies.c), each cudaMemcpy the one for what it
/// copies.
void prepareCudaRuntimeCalls(llvm::Module &M,
                             llvm::ArrayRef<llvm::Function *> Reached);

/// Scan mode: writes the device names of the kernels whose host stubs are
/// reachable from the requests of host module \p M to
/// launchedKernelListPath(), those of forward-mode requests as
/// `forward NAME`.
void listLaunchedKernels(llvm::Module &M);

/// Device code: defines the derivative kernels of the listed kernels of
/// \p M with \p Gen. Errors are reported at the kernels.
void createKernelDerivatives(llvm::Module &M, ReverseModeGenerator &Gen);

/// Device code: defines the tangent kernels of the kernels of \p M on the
/// tangent list with \p Gen. Errors are reported at the kernels.
void createTangentKernels(llvm::Module &M, ForwardModeGenerator &Gen);

/// Device code: the slot of static shared memory that holds, in each block
/// of a launch's derivative kernel, the offset of the shadows of
/// `extern __shared__` arrays from the arrays
/// (Plugin/DynamicSharedShadows.cpp); nullptr where there is none and not \p
/// Create.
llvm::GlobalVariable *dynamicShadowOffsetSlot(llvm::Module &M, bool Create);

/// Device code: rewrites the uses of \p StandIns (createDynamicSharedShadows)
/// into the arrays' addresses plus the offset in the slot, then forgets
/// them: device code differentiated later (a device-side request) has no
/// shadow for the arrays.
void lowerDynamicSharedShadows(llvm::Module &M,
                               llvm::ArrayRef<llvm::GlobalVariable *> StandIns);

/// Device code: reports the kernels other than launches' derivative kernels
/// that reach a use of the shadows' offset (a function generated for both
/// that a device-side request reused).
void checkDynamicSharedShadowUsers(llvm::Module &M);

/// Host code: gives the host stubs of the listed kernels of \p M custom
/// gradients that launch the derivative kernels (and custom forward
/// derivatives that launch the tangent kernels), and registers those
/// kernels with the CUDA runtime. Does nothing a second time.
void createLaunchGradients(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_PLUGIN_LAUNCHDERIVATIVES_H
