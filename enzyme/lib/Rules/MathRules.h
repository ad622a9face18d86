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

struct MathRule {
  /// The libm name of the double form ("atan2").
  llvm::StringRef Name;
  /// ∂f/∂xᵢ for each argument; std::nullopt for an argument that carries no
  /// derivative (an integer exponent).
  std::vector<std::optional<Expr>> Partials;
};

/// The rule for \p Call when it calls a known math function or intrinsic
/// whose signature matches the rule; nullptr otherwise.
const MathRule *findMathRule(const llvm::CallBase &Call);

/// \p Name is the libm name of a function the table has ("sin").
bool isMathFunctionName(llvm::StringRef Name);

} // namespace enzyme::rules

#endif // ENZYME_RULES_MATHRULES_H
