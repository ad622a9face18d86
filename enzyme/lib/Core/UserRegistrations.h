//===- UserRegistrations.h - What users declare with __enzyme_* globals -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Users tell the engine about functions and globals with registration
/// globals, whose names contain a key (Enzyme's ABI; the attribute plugin
/// writes the same globals for `__attribute__((enzyme_inactive))` and
/// friends):
///
///   void *__enzyme_register_gradient_f[3] = {f, augment, reverse};
///   void *__enzyme_register_derivative_f[2] = {f, forward};
///   void *__enzyme_inactivefn_f[1] = {f};        (or a plain pointer)
///   void *__enzyme_inactive_global_g[1] = {&g};
///   void *__enzyme_function_like_f[2] = {f, "sin"};
///   void *__enzyme_allocation_like_f[4] = {alloc, (void*)SIZE_ARG, "-1",
///   free};
///   void *__enzyme_differentiable_launcher_f = (void*)f;  (this toolchain's:
///                         f launches kernels and is differentiated from
///                         another file, Core/KernelLaunches.h)
///
/// Reading them checks each one against the function it names and reports a
/// located error for a malformed one. Marks that every part of the engine
/// must see are put on the IR (an `enzyme_inactive` function attribute, an
/// `enzyme_math` attribute naming the math function, allocation attributes);
/// custom derivatives are kept here for the generators.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_USERREGISTRATIONS_H
#define ENZYME_CORE_USERREGISTRATIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Constant;
class Function;
class GlobalVariable;
class Module;
class Type;
} // namespace llvm

namespace enzyme {

/// `__enzyme_register_gradient`: a custom augmented forward function and
/// reverse function for a function (its body, if any, is not
/// differentiated). The user's functions take every pointer parameter of
/// the function followed by its shadow; the reverse function also takes
/// the adjoint of a floating-point result, then the tape if the augmented
/// function returns one, and returns the gradients of the floating-point
/// parameters (one value, or a struct of them in order).
struct CustomGradient {
  llvm::Function *Augment = nullptr;
  llvm::Function *Reverse = nullptr;
  /// The augmented function returns a tape (alone, or first in a struct
  /// with the primal result).
  llvm::Type *TapeType = nullptr;
  /// The augmented function returns the primal result.
  bool ReturnsPrimal = false;
  /// The reverse function returns its gradients through a struct-return
  /// pointer (its first parameter).
  bool GradientsThroughMemory = false;
  llvm::GlobalVariable *Registration = nullptr;
};

/// `__enzyme_register_derivative`: a custom forward-mode derivative. It
/// takes the function's parameters, each floating-point or pointer one
/// followed by its tangent (or shadow), and returns the tangent of the
/// result, or a struct of the result and its tangent (void for a void
/// function).
struct CustomForward {
  llvm::Function *Forward = nullptr;
  /// It returns {result, tangent} (else the tangent alone).
  bool ReturnsPrimal = false;
  llvm::GlobalVariable *Registration = nullptr;
};

class UserRegistrations {
public:
  /// Reads the registration globals of \p M, puts their marks on the IR
  /// and reports malformed ones (which are then left out).
  explicit UserRegistrations(llvm::Module &M);

  const CustomGradient *gradientOf(const llvm::Function *F) const {
    auto It = Gradients.find(F);
    return It == Gradients.end() ? nullptr : &It->second;
  }
  const CustomForward *forwardOf(const llvm::Function *F) const {
    auto It = Forwards.find(F);
    return It == Forwards.end() ? nullptr : &It->second;
  }

  /// Marks the functions that registrations name `noinline`, so that the
  /// optimiser does not inline them before the engine runs (their callers
  /// would then differentiate the body instead of honouring the mark).
  static void keepRegisteredFunctionsCallable(llvm::Module &M);

  /// Puts the registration globals of \p M in `llvm.used`: nothing refers
  /// to them, so the link would drop them before a request served there
  /// (its callees in other files) could read them.
  static void keepRegistrationsToTheLink(llvm::Module &M);

private:
  void readGradient(llvm::GlobalVariable &GV);
  void readForward(llvm::GlobalVariable &GV);
  void readInactiveFunction(llvm::GlobalVariable &GV);
  void readInactiveGlobal(llvm::GlobalVariable &GV);
  void readShadowGlobal(llvm::GlobalVariable &GV);
  void readFunctionLike(llvm::GlobalVariable &GV);
  void readAllocationLike(llvm::GlobalVariable &GV);

  llvm::DenseMap<const llvm::Function *, CustomGradient> Gradients;
  llvm::DenseMap<const llvm::Function *, CustomForward> Forwards;
};

/// The name of \p F's registration of \p Kind ("register_gradient",
/// "register_derivative"...): `__enzyme_<Kind>_<F>`.
std::string registrationName(llvm::StringRef Kind, const llvm::Function &F);

/// Writes `__enzyme_<Kind>_<F> = {F, Rules...}` into \p M, as a user would:
/// the toolchain's own rules reach the engine as registrations it reads.
void addRegistration(llvm::Module &M, llvm::StringRef Kind, llvm::Function &F,
                     llvm::ArrayRef<llvm::Constant *> Rules);

/// A global whose name contains \p NamePart (`__enzyme_register_`, or
/// `__enzyme_` for any registration) holds \p F, directly or inside
/// constants.
bool isNamedByRegistration(const llvm::Function &F, llvm::StringRef NamePart);

/// The global `__enzyme_inactive_global` named: its memory carries no
/// derivatives, so values stored into it lose theirs.
bool isInactiveGlobal(const llvm::GlobalVariable &GV);

} // namespace enzyme

#endif // ENZYME_CORE_USERREGISTRATIONS_H
