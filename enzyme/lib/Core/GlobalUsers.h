//===- GlobalUsers.h - Functions that reach some globals --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A global with a shadow (a declared one, Core/GlobalShadows.h, or one kept
/// in a context, Core/ContextShadows.h) carries derivatives into every
/// function that reads or writes it, and into their callers, whatever their
/// arguments. Each kind of global marks those functions with an attribute of
/// its own, found by one walk to a fixed point, and flags the module so that
/// calls through pointers count as possible users.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_GLOBALUSERS_H
#define ENZYME_CORE_GLOBALUSERS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace enzyme {

/// The names one kind of global's users are recorded under.
struct GlobalUserMarks {
  /// The function attribute of a user.
  llvm::StringRef Attr;
  /// Named metadata present when the module has such globals.
  llvm::StringRef ModuleFlag;
};

/// Marks with \p Marks the functions of \p M that mention a global for
/// which \p Tracked holds (in a constant expression too), or for which
/// \p Reaches holds (a kernel's host stub: the kernel's body is in the
/// device compilation), directly or through the functions they call; clears
/// earlier marks first. With \p Enabled false, or no such global, only
/// clears.
void markGlobalUsers(
    llvm::Module &M, const GlobalUserMarks &Marks, bool Enabled,
    llvm::function_ref<bool(const llvm::GlobalVariable &)> Tracked,
    llvm::function_ref<bool(const llvm::Function &)> Reaches = nullptr);

/// \p Call may reach a global marked with \p Marks: its callee is a user, or
/// it calls through a pointer in a module that has such globals.
bool mayReachMarkedGlobals(const llvm::CallBase &Call,
                           const GlobalUserMarks &Marks);

} // namespace enzyme

#endif // ENZYME_CORE_GLOBALUSERS_H
