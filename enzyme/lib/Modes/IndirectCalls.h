//===- IndirectCalls.h - Calls through function pointers --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What both modes share for calls through pointers whose arguments or
/// result carry derivatives: the functions such a call may reach, and a
/// dispatcher that compares the pointer with each and calls that target's
/// derivative (IndirectCalls.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_INDIRECTCALLS_H
#define ENZYME_MODES_INDIRECTCALLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace llvm {
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace enzyme {

struct DifferentiationFailure;
class UserRegistrations;

/// The functions of \p M that a call through a pointer of type \p FT may
/// reach: those of that type whose address is taken (stored, put in a
/// vtable, passed on), with a body, a custom derivative or an inactive mark;
/// kernels' host stubs only where \p KernelLaunch (the call is a launch,
/// isConfiguredCallThroughPointer), since nothing else may call them. Fills \p
/// Failure and returns none when there are none or too many, or when \p Defer
/// (a compile-time run: another module may hold more targets, so the request
/// waits for the link).
llvm::SmallVector<llvm::Function *, 4>
possibleCallTargets(llvm::Module &M, llvm::FunctionType *FT, bool KernelLaunch,
                    const UserRegistrations *Registrations, bool Defer,
                    DifferentiationFailure &Failure);

/// Rewrites \p Failure, of the possible target \p Target, as the failure of
/// the call through a pointer, with \p Remedy.
void blameTarget(DifferentiationFailure &Failure, const llvm::Function &Target,
                 llvm::StringRef Remedy);

/// `dispatch(fp, args...)`, of the type of \p Derivatives' functions with a
/// pointer first: calls the derivative of the target \p fp names, and traps
/// for any other pointer.
llvm::Function *createDispatcher(llvm::Module &M,
                                 llvm::ArrayRef<llvm::Function *> Targets,
                                 llvm::ArrayRef<llvm::Function *> Derivatives,
                                 const llvm::Twine &Name);

} // namespace enzyme

#endif // ENZYME_MODES_INDIRECTCALLS_H
