//===- MathRules.cpp - Derivatives of math functions and intrinsics -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Rules/MathRules.h"
#include "Rules/SpecialFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace enzyme::rules {
namespace {

const Expr X = Expr::argument(0);
const Expr Y = Expr::argument(1);
const Expr Z = Expr::argument(2);
const Expr R = Expr::result();
const Expr Zero = Expr::constant(0);
const Expr One = Expr::constant(1);

Expr fn(StringRef Name, Expr A) { return Expr::math(Name, {A}); }
Expr fn(StringRef Name, Expr A, Expr B) { return Expr::math(Name, {A, B}); }
Expr less(Expr A, Expr B) { return Expr::compare(Expr::Kind::Less, A, B); }
Expr greater(Expr A, Expr B) {
  return Expr::compare(Expr::Kind::Greater, A, B);
}
Expr digamma(Expr A) { return Expr::hook(emitDigamma, {A}); }

constexpr double Ln2 = numbers::ln2;
constexpr double Ln10 = numbers::ln10;
constexpr double TwoOverSqrtPi = 2.0 * numbers::inv_sqrtpi;

/// The table: name of the double form, then ∂f/∂xᵢ per argument.
std::vector<MathRule> buildTable() {
  return {
      {"sin", {fn("cos", X)}},
      {"cos", {-fn("sin", X)}},
      {"tan", {1.0 + R * R}},
      {"asin", {1.0 / fn("sqrt", 1.0 - X * X)}},
      {"acos", {-(1.0 / fn("sqrt", 1.0 - X * X))}},
      {"atan", {1.0 / (1.0 + X * X)}},
      // atan2(y, x): argument 0 is y, argument 1 is x.
      {"atan2", {Y / (X * X + Y * Y), -X / (X * X + Y * Y)}},
      {"sinh", {fn("cosh", X)}},
      {"cosh", {fn("sinh", X)}},
      {"tanh", {1.0 - R * R}},
      {"asinh", {1.0 / fn("sqrt", X * X + 1.0)}},
      {"acosh", {1.0 / fn("sqrt", X * X - 1.0)}},
      {"atanh", {1.0 / (1.0 - X * X)}},
      {"exp", {R}},
      {"exp2", {Ln2 * R}},
      {"exp10", {Ln10 * R}},
      {"expm1", {R + 1.0}},
      {"log", {1.0 / X}},
      {"log2", {1.0 / (Ln2 * X)}},
      {"log10", {1.0 / (Ln10 * X)}},
      {"log1p", {1.0 / (1.0 + X)}},
      {"pow",
       {Y * fn("pow", X, Y - 1.0),
        Expr::hook(emitPowExponentPartial, {R, fn("log", X)})}},
      {"powi",
       {Expr::toFloat(Y) * fn("pow", X, Expr::toFloat(Y) - 1.0), std::nullopt}},
      {"sqrt", {0.5 / R}},
      {"cbrt", {R / (3.0 * X)}},
      {"hypot", {X / R, Y / R}},
      {"fabs", {fn("copysign", One, X)}},
      {"fmin", {less(X, Y), 1.0 - less(X, Y)}},
      {"fmax", {greater(X, Y), 1.0 - greater(X, Y)}},
      {"fma", {Y, X, One}},
      {"copysign", {fn("copysign", One, X) * fn("copysign", One, Y), Zero}},
      {"fmod", {One, -fn("trunc", X / Y)}},
      {"erf", {TwoOverSqrtPi * fn("exp", -(X * X))}},
      {"erfc", {-(TwoOverSqrtPi * fn("exp", -(X * X)))}},
      {"lgamma", {digamma(X)}},
      {"tgamma", {R * digamma(X)}},
      {"ldexp", {Expr::hook(emitLdexpScale, {Y, X}), std::nullopt}},
      {"floor", {Zero}},
      {"ceil", {Zero}},
      {"round", {Zero}},
      {"roundeven", {Zero}},
      {"trunc", {Zero}},
      {"rint", {Zero}},
      {"nearbyint", {Zero}},
  };
}

/// Intrinsics that mean the same as a libm function.
StringRef libmNameOfIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
    return "sin";
  case Intrinsic::cos:
    return "cos";
  case Intrinsic::tan:
    return "tan";
  case Intrinsic::asin:
    return "asin";
  case Intrinsic::acos:
    return "acos";
  case Intrinsic::atan:
    return "atan";
  case Intrinsic::sinh:
    return "sinh";
  case Intrinsic::cosh:
    return "cosh";
  case Intrinsic::tanh:
    return "tanh";
  case Intrinsic::exp:
    return "exp";
  case Intrinsic::exp2:
    return "exp2";
  case Intrinsic::exp10:
    return "exp10";
  case Intrinsic::log:
    return "log";
  case Intrinsic::log2:
    return "log2";
  case Intrinsic::log10:
    return "log10";
  case Intrinsic::pow:
    return "pow";
  case Intrinsic::powi:
    return "powi";
  case Intrinsic::sqrt:
    return "sqrt";
  case Intrinsic::fabs:
    return "fabs";
  case Intrinsic::minnum:
  case Intrinsic::minimum:
    return "fmin";
  case Intrinsic::maxnum:
  case Intrinsic::maximum:
    return "fmax";
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return "fma";
  case Intrinsic::copysign:
    return "copysign";
  case Intrinsic::ldexp:
    return "ldexp";
  case Intrinsic::floor:
    return "floor";
  case Intrinsic::ceil:
    return "ceil";
  case Intrinsic::round:
    return "round";
  case Intrinsic::roundeven:
    return "roundeven";
  case Intrinsic::trunc:
    return "trunc";
  case Intrinsic::rint:
    return "rint";
  case Intrinsic::nearbyint:
    return "nearbyint";
  default:
    return "";
  }
}

const StringMap<MathRule> &table() {
  static const StringMap<MathRule> Table = [] {
    StringMap<MathRule> T;
    for (MathRule &Rule : buildTable())
      T.try_emplace(Rule.Name, std::move(Rule));
    return T;
  }();
  return Table;
}

/// Strips the libm suffix that matches the call's floating-point type.
StringRef baseName(StringRef Name, Type *Ty) {
  if (Ty->isFloatTy() && Name.ends_with("f"))
    return Name.drop_back();
  if ((Ty->isX86_FP80Ty() || Ty->isFP128Ty()) && Name.ends_with("l"))
    return Name.drop_back();
  if (Ty->isDoubleTy())
    return Name;
  return "";
}

/// A libm call matches its rule when its floating-point arguments and result
/// share one type and the arity agrees.
bool signatureMatches(const CallBase &Call, const MathRule &Rule) {
  Type *Ty = Call.getType();
  if (!Ty->getScalarType()->isFloatingPointTy() ||
      Call.arg_size() != Rule.Partials.size())
    return false;
  // Intrinsics on fixed-width vectors (vectorised code) take the rule
  // element by element, where its partials can be evaluated on vectors.
  if (Ty->isVectorTy() &&
      (!isa<FixedVectorType>(Ty) || !isa<IntrinsicInst>(Call) ||
       !all_of(Rule.Partials, [](const std::optional<Expr> &P) {
         return !P || evaluatesOnVectors(*P);
       })))
    return false;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Type *ArgTy = Call.getArgOperand(I)->getType();
    if (Rule.Partials[I] ? ArgTy != Ty : !ArgTy->isIntegerTy())
      return false;
  }
  return true;
}

} // namespace

bool isMathFunctionName(StringRef Name) { return table().count(Name); }

const MathRule *findMathRule(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return nullptr;
  StringRef Name;
  if (Intrinsic::ID ID = Callee->getIntrinsicID())
    Name = libmNameOfIntrinsic(ID);
  else if (StringRef Like =
               Callee->getFnAttribute("enzyme_math").getValueAsString();
           !Like.empty())
    Name = Like; // __enzyme_function_like: behaves like that function.
  else if (Callee->isDeclaration() || Callee->hasFnAttribute("enzyme_math"))
    Name = baseName(Callee->getName(), Call.getType());
  if (Name.empty())
    return nullptr;
  auto It = table().find(Name);
  if (It == table().end() || !signatureMatches(Call, It->second))
    return nullptr;
  return &It->second;
}

} // namespace enzyme::rules
