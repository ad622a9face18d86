//===- DeviceMathLibrary.h - libdevice in derivatives of GPU code -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA device code computes math through libdevice (`__nv_sin`, ...), not
/// the C library, and the NVPTX backend selects only a few math intrinsics
/// (sqrt, fabs, copysign, trunc). Derivative rules of device code therefore
/// call libdevice functions. Clang links libdevice before optimisation and
/// keeps only the functions the code used then, so after AD the engine
/// links the ones its derivatives added, from the file the driver names
/// (`-enzyme-libdevice`). Without that option (CUDA emulation, whose
/// runtime answers `__nv_*` calls on the host, or a plain clang build that
/// links libdevice later) the calls stay declarations.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_DEVICEMATHLIBRARY_H
#define ENZYME_CORE_DEVICEMATHLIBRARY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// Whether the NVPTX backend selects the math intrinsic \p ID itself.
bool isNativeDeviceMathIntrinsic(llvm::Intrinsic::ID ID);

/// The libdevice function for the libm function \p LibmName ("cosf").
std::string deviceMathName(llvm::StringRef LibmName);

/// The libm name of the libdevice function \p Name ("__nv_fast_sinf" is
/// "sinf"), or an empty string for a name outside libdevice.
llvm::StringRef libmNameOfDeviceFunction(llvm::StringRef Name);

/// At the start of the pipeline of device code that asks for derivatives:
/// keeps libdevice's functions that have a derivative rule from being
/// inlined (clang marks them always_inline), so that the engine sees
/// `__nv_sin` rather than its NVVM body.
void keepDeviceMathCallable(llvm::Module &M);

/// Whether \p F is a libdevice function kept callable for AD whose result
/// depends on its arguments only: it takes no pointers (unlike sincos or
/// frexp) and reads nothing but libdevice's constant tables.
bool isPureDeviceMath(const llvm::Function &F);

/// After AD: links the libdevice functions derivatives added (below) and
/// inlines libdevice into its callers, as clang would have. Before that, in
/// the functions \p SharesMath selects (derivatives: the code clang compiled
/// stays as clang would compile it), identical calls and the sin and cos of
/// one value share their work.
void finishDeviceMath(
    llvm::Module &M,
    llvm::function_ref<bool(const llvm::Function &)> SharesMath = nullptr);

/// Links into \p M the libdevice definitions of the `__nv_*` functions it
/// calls but does not define, when the driver named the library; reports an
/// error when the library cannot be read or lacks one of them.
void linkDeviceMathLibrary(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_CORE_DEVICEMATHLIBRARY_H
