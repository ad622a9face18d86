//===- Diagnostics.h - Clang-style errors from the engine -------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Errors reach the user through LLVM's diagnostic machinery, so clang prints
/// them as `file:line:col: error: ...` at the `__enzyme_*` call and lld as
/// `ld.lld: error: ...`. The engine never asserts on user code.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_DIAGNOSTICS_H
#define ENZYME_CORE_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"

#include <string>

namespace llvm {
class Instruction;
} // namespace llvm

namespace enzyme {

/// "file.c:12:5" for \p Loc, or an empty string without debug info.
std::string describeLocation(const llvm::DebugLoc &Loc);

/// Reports an error located at \p At (an `__enzyme_*` call). \p Offending,
/// when given, is the instruction that could not be differentiated; its
/// location is added as a note line.
void reportError(const llvm::Instruction &At, const llvm::Twine &Message,
                 const llvm::Instruction *Offending = nullptr);

} // namespace enzyme

#endif // ENZYME_CORE_DIAGNOSTICS_H
