//===- RuntimeLibrary.h - Run-time support linked into modules --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Some generated code needs run-time support too large to build with an
/// IRBuilder by hand (a hash set, for ShadowRegistry.c), or a message printed
/// at run time (ExceptionReport.c). It is written in C
/// under enzyme/runtime/, compiled to LLVM IR when the plugin is built,
/// embedded in the plugin, and linked into a module the first time one of
/// its functions is asked for: as linkonce_odr definitions, so that the
/// linker keeps one copy per program however many modules carry it, and
/// with the `enzyme_inactive` attribute, so that code differentiated again
/// (higher order) does not differentiate it. No library needs to be linked.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_RUNTIMELIBRARY_H
#define ENZYME_CORE_RUNTIMELIBRARY_H

#include "llvm/ADT/StringRef.h"

#include <utility>

namespace llvm {
class DebugLoc;
class Function;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace enzyme {

/// The run-time function \p Name (one of enzyme/runtime/*.c's), defined in
/// \p M: linked in on first use.
llvm::Function *getRuntimeFunction(llvm::Module &M, llvm::StringRef Name);

/// The two arguments that begin a run-time report emitted with \p B: the
/// name of \p Primal as the user wrote it, and "file:line:column" of \p Loc
/// (null without debug info); global strings named \p Prefix `.fn` and
/// `.at`.
std::pair<llvm::Value *, llvm::Value *>
createReportSubject(llvm::IRBuilderBase &B, const llvm::Function &Primal,
                    const llvm::DebugLoc &Loc, llvm::StringRef Prefix);

/// \p F, or a generated (internal) function it calls, calls the run-time
/// function \p Name.
bool reachesRuntimeCall(const llvm::Function &F, llvm::StringRef Name);

/// \p M's target can take the run-time (a 64-bit CPU target: the IR is
/// compiled for x86-64 and holds nothing else specific to it).
bool canLinkRuntime(const llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_CORE_RUNTIMELIBRARY_H
