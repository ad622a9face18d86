//===- MathRules.h - Derivatives of math functions and intrinsics -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one declarative table of math derivatives: libm functions (double,
/// `f`-suffixed float and `l`-suffixed long double forms) and the matching
/// LLVM intrinsics. Adding a function is one entry in MathRules.cpp.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_RULES_MATHRULES_H
#define ENZYME_RULES_MATHRULES_H

#include "Rules/DerivativeExpr.h"

#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <vector>

namespace enzyme::rules {

/// A function of floating-point arguments returning one floating-point
/// value, or a complex number as the pair {re, im} (C99 `double complex`
/// functions, whose complex arguments arrive as two doubles each: z = x + iy
/// is (x, y)). A complex function is a map to R^2, and its partials are the
/// rows of its real Jacobian.
struct MathRule {
  /// The libm name of the double form ("atan2").
  llvm::StringRef Name;
  /// ∂f/∂xᵢ for each argument (of the real part of a complex result);
  /// std::nullopt for an argument that carries no derivative (an integer
  /// exponent, a pointer to the integer exponent frexp writes).
  std::vector<std::optional<Expr>> Partials;
  /// For a complex result: ∂Im f/∂xᵢ for each argument. Empty otherwise.
  std::vector<std::optional<Expr>> ImagPartials = {};
  /// The arguments are complex numbers, each as two consecutive parts
  /// (cabs, cexp, __muldc3): what LibraryRewrites.h relies on to restate
  /// the `float complex` and `long double complex` calling conventions.
  bool ComplexArgs = false;

  bool returnsComplex() const { return !ImagPartials.empty(); }
  /// 1, or 2 for a complex result.
  unsigned resultParts() const { return returnsComplex() ? 2 : 1; }
  /// ∂(part \p Part of f)/∂(argument \p Arg).
  const std::optional<Expr> &partial(unsigned Part, unsigned Arg) const {
    return Part == 0 ? Partials[Arg] : ImagPartials[Arg];
  }
  /// Whether any part's partial for \p Arg exists.
  bool hasPartial(unsigned Arg) const {
    return Partials[Arg] || (returnsComplex() && ImagPartials[Arg]);
  }
};

/// The floating-point type a rule's expressions are computed in for
/// \p Call: its result type, or the type of each part of a complex result.
llvm::Type *ruleType(const llvm::CallBase &Call);

/// The rule for \p Call when it calls a known math function or intrinsic
/// whose signature matches the rule; nullptr otherwise.
const MathRule *findMathRule(const llvm::CallBase &Call);

/// The rule of the complex function \p Name of parts \p PartTy, as
/// declared: a C99 one ("cexpf" with float, "cabsl" with x86_fp80) or the
/// compiler runtime's complex product or quotient ("__mulsc3",
/// "__divxc3"); nullptr for any other name or a suffix that does not match
/// \p PartTy.
const MathRule *findComplexRule(llvm::StringRef Name, llvm::Type *PartTy);

/// \p Name is the libm name of a function the table has ("sin").
bool isMathFunctionName(llvm::StringRef Name);

} // namespace enzyme::rules

#endif // ENZYME_RULES_MATHRULES_H
