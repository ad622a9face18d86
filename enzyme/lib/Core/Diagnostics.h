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

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"

#include <string>

namespace llvm {
class GlobalVariable;
class Instruction;
class Type;
} // namespace llvm

namespace enzyme {

/// "file.c:12:5" for \p Loc, or an empty string without debug info.
std::string describeLocation(const llvm::DebugLoc &Loc);

/// Reports an error located at \p At (an `__enzyme_*` call).
/// \p OffendingLocation, when not empty, is where the operation that could
/// not be differentiated is. An error already reported for the same place
/// (a request inlined into several callers) is not repeated.
void reportError(const llvm::Instruction &At, const llvm::Twine &Message,
                 llvm::StringRef OffendingLocation = "");

/// Reports a warning located at \p At, as reportError does an error.
void reportWarning(const llvm::Instruction &At, const llvm::Twine &Message,
                   llvm::StringRef OffendingLocation = "");

/// Reports an error about a global the user wrote (a registration), at its
/// declaration when debug info has it.
void reportError(const llvm::GlobalVariable &At, const llvm::Twine &Message);

/// A user-facing name: C++ names demangled.
std::string displayName(llvm::StringRef Symbol);
/// A user-facing type name: `double`, `long double`, `int`, `pointer`...
std::string displayType(llvm::Type *Ty);

} // namespace enzyme

#endif // ENZYME_CORE_DIAGNOSTICS_H
