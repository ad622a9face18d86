//===- KernelLaunches.h - Kernels differentiated for their launches -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Host code that launches CUDA kernels is differentiated without a
/// hand-written pair (docs/cuda.md, "Host code that launches kernels"). The
/// two compilations of a CUDA file must agree on which kernels get
/// derivatives: the driver first compiles the host side at -O0 with the
/// engine in scan mode, which lists the kernels whose host stubs are
/// reachable from requests (-enzyme-list-launched-kernels), and passes the
/// lists to both compilations: -enzyme-derivative-kernels for reverse-mode
/// requests, -enzyme-tangent-kernels for forward-mode ones (and
/// -enzyme-optional-tangent-kernels for those a launcher registration names,
/// which only reverse mode may be able to differentiate). With relocatable
/// device code (-fgpu-rdc), host code in other files may launch the file's
/// kernels: -enzyme-relocatable-kernels lists those other files can name,
/// which get both kinds where they can be differentiated.
///
/// For each listed kernel K, the device compilation defines
///   _enzyme_kernel_augmented_K(params, shadows, tapes)        a kernel,
///   _enzyme_kernel_reverse_K(params, shadows, scalars, tapes) a kernel,
///   _enzyme_kernel_info_K = {tape bytes per thread, used shadows,
///                            scalar adjoints}
/// where `shadows` are those of the pointer parameters and of the structs
/// passed by value in order (a struct's shadow is a struct of the same
/// type, which holds the shadows of its pointers), `tapes` is the tape
/// buffer, and `scalars` receives the adjoints of the float and double
/// parameters and of the float and double fields of the structs (in
/// parameter order, fields in memory order), as doubles summed over threads
/// (ScalarAdjointReplicas slots each). For each kernel of the tangent list,
/// it defines
///   _enzyme_kernel_tangent_K(params, tangents)                 a kernel,
///   _enzyme_kernel_tangent_info_K = {0, used shadows, 0}
/// where `tangents` are those of the pointer, floating-point and struct
/// parameters in order (a struct's holds the tangents of its floats); the
/// kernel computes the primal and its tangents. The names
/// stay clear of `__enzyme_`, which the user ABI's entry points and
/// registrations use. The host compilation gives K's stub a custom gradient
/// and a custom forward derivative that launch them (runtime/CudaLaunch.c).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_KERNELLAUNCHES_H
#define ENZYME_CORE_KERNELLAUNCHES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class DataLayout;
class Function;
class FunctionType;
class Module;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

/// The adjoint of a float or double parameter of a launched kernel is
/// summed in this many double slots (block by block, round robin), which
/// the host adds up: one slot would take an atomic addition from every
/// warp of the launch, one after the other.
inline constexpr unsigned ScalarAdjointReplicas = 64;

/// The kernels (device names) the driver asked reverse-mode derivative
/// kernels for, the optional ones included.
bool isDerivativeKernel(llvm::StringRef KernelName);
/// A kernel that gets derivative kernels only because other files may
/// launch it (isRelocatableKernel): where reverse mode cannot differentiate
/// it, the device compilation warns and its launches in differentiated
/// host code stop the program with a message (KernelUnavailable).
bool isOptionalDerivativeKernel(llvm::StringRef KernelName);
/// A kernel of relocatable device code (-fgpu-rdc) with external linkage:
/// host code in other files may launch it, so its file makes derivative
/// and tangent kernels for it where it can be differentiated.
bool isRelocatableKernel(llvm::StringRef KernelName);
/// The kernels the driver asked tangent kernels for (forward mode), the
/// optional ones included.
bool isTangentKernel(llvm::StringRef KernelName);
/// A tangent kernel that only a launcher registration or other files'
/// launches (isRelocatableKernel) ask for: where the kernel cannot be
/// differentiated in forward mode, the device compilation warns, and its
/// forward launches stop the program with a message (KernelUnavailable).
bool isOptionalTangentKernel(llvm::StringRef KernelName);

/// The first word of a derivative or tangent kernel's info where the device
/// compilation could not make the kernel.
inline constexpr uint64_t KernelUnavailable = ~uint64_t(0);
/// The driver asked for derivative or tangent kernels.
bool anyDerivativeKernels();

/// Where scan mode writes the kernels it finds, or empty outside scan mode.
llvm::StringRef launchedKernelListPath();

std::string augmentedKernelName(llvm::StringRef Kernel);
std::string reverseKernelName(llvm::StringRef Kernel);
std::string kernelInfoName(llvm::StringRef Kernel);
std::string tangentKernelName(llvm::StringRef Kernel);
std::string tangentKernelInfoName(llvm::StringRef Kernel);

/// The device name of the kernel whose host stub clang named \p Stub
/// (`_Z22__device_stub__collidePfS_` -> `_Z7collidePfS_`), or nullopt if
/// \p Stub is no stub.
std::optional<std::string> kernelNameOfStub(llvm::StringRef Stub);

/// The name of a copy of \p Base made for \p Callee, a function it calls
/// or launches: `Base.Kind.K` with K the kernel's device name where
/// \p Callee is a kernel's host stub (a name holding the stub's would itself
/// read as a stub, kernelNameOfStub), \p Callee's name otherwise.
std::string copyNameFor(llvm::StringRef Base, llvm::StringRef Kind,
                        llvm::StringRef Callee);

/// \p Name is a CUDA runtime API function that launches the kernel one of
/// its operands names (launchedKernel).
bool isRuntimeLaunch(llvm::StringRef Name);

/// \p Call is a call through a pointer that `K<<<Grid, Block>>>(Args...)`
/// makes with `K` a pointer: its function pushes a launch configuration
/// (`__cudaPushCallConfiguration`). A kernel's host stub is only called so,
/// never by a plain call through a pointer.
bool isConfiguredCallThroughPointer(const llvm::CallBase &Call);

/// The operand of \p Call, a launch through the CUDA runtime API
/// (`cudaLaunchKernel`, `cudaLaunchKernelExC`, ...), that names the kernel
/// it launches (the kernel's host stub), or nullptr for other calls.
llvm::Value *launchedKernel(const llvm::CallBase &Call);

/// Why \p Call cannot be differentiated in reverse mode (or \p Forward
/// mode) when its callee has no custom derivative: it calls a kernel's host
/// stub, or does what a stub does (pop the launch's configuration, launch),
/// and this CUDA file made no derivative kernels for the kernel; or it
/// launches through the runtime API a kernel that the program chooses at
/// run time (a function pointer read from memory; those passed down as
/// constants are specialised first, FunctionArgumentSpecialization.cpp).
/// Nullopt for other calls.
std::optional<std::string>
launchWithoutDerivativeKernels(const llvm::CallBase &Call, bool Forward);

/// Why \p Call, a call of the host stub of a kernel that another file
/// defines (relocatable device code), cannot be differentiated in this
/// module: the stub, and the derivative kernels its file may give it, come
/// with the link. Nullopt for other calls.
std::optional<std::string>
launchOfKernelDefinedElsewhere(const llvm::CallBase &Call);

/// Why \p Call, a call of CUDA's graph API (`cudaStreamBeginCapture`,
/// `cudaGraphLaunch`, ...), cannot be differentiated: kernels a graph
/// captures run when the graph is launched, not where the capture launches
/// them, so neither marking the calls inactive nor reversing the captured
/// launches in place would be right. Nullopt for other calls.
std::optional<std::string> cudaGraphCall(const llvm::CallBase &Call);

/// A float or double field of a struct that a kernel takes by value.
struct FloatField {
  uint64_t Offset;
  llvm::Type *Ty;
};

/// The float and double fields of \p Ty, a struct a kernel takes by value,
/// at their offsets in memory order (in nested structs and arrays too).
/// False when \p Ty holds a union (whose bytes may or may not be a float),
/// a vector or another floating-point type, which the host and device
/// halves of a launch's derivative could not agree on.
bool floatFieldsOf(llvm::Type *Ty, const llvm::DataLayout &DL,
                   llvm::SmallVectorImpl<FloatField> &Fields);

/// A struct that a launched kernel takes by value may hold this many floats
/// and doubles (each takes ScalarAdjointReplicas sums); pass larger ones
/// through a pointer.
inline constexpr unsigned MaxStructFloatFields = 64;

/// The first parameter of \p Kernel, a kernel's device code, that its
/// derivative kernels cannot take: neither a pointer, an integer, a float,
/// a double nor a struct passed by value whose fields floatFieldsOf
/// accepts (at most MaxStructFloatFields of them).
std::optional<unsigned>
unsupportedKernelParameter(const llvm::Function &Kernel);

/// \p F is a CUDA kernel (an entry point of a launch).
bool isCudaKernel(const llvm::Function &F);
/// Marks \p F a CUDA kernel.
void markCudaKernel(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_CORE_KERNELLAUNCHES_H
