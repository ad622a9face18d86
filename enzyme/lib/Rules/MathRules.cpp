//===- MathRules.cpp - Derivatives of math functions and intrinsics -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Rules/MathRules.h"
#include "Core/DeviceMathLibrary.h"
#include "Rules/SpecialFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

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

/// A complex number written as two expressions, for the derivatives of
/// complex functions.
struct Complex {
  Expr Re, Im;
};
Complex operator+(double A, Complex B) { return {A + B.Re, B.Im}; }
Complex operator-(double A, Complex B) { return {A - B.Re, -B.Im}; }
Complex operator-(Complex A) { return {-A.Re, -A.Im}; }
Complex operator*(Complex A, Complex B) {
  return {A.Re * B.Re - A.Im * B.Im, A.Re * B.Im + A.Im * B.Re};
}
Complex operator/(Complex A, Complex B) {
  Expr Norm = B.Re * B.Re + B.Im * B.Im;
  return {(A.Re * B.Re + A.Im * B.Im) / Norm,
          (A.Im * B.Re - A.Re * B.Im) / Norm};
}
Complex real(double V) { return {Expr::constant(V), Expr::constant(0)}; }

/// z = (x, y) and w = (u, v), the complex arguments; F the complex result.
const Complex CZ = {X, Y};
const Complex CW = {Z, Expr::argument(3)};
const Complex CF = {Expr::result(0), Expr::result(1)};
/// The principal logarithm of z.
const Complex LogZ = {fn("log", fn("hypot", X, Y)), fn("atan2", Y, X)};

/// A holomorphic function f of the complex arguments z_k = (x_k, y_k) whose
/// derivative in z_k is Derivatives[k]: with f' = a + ib, the real Jacobian
/// block of z_k is [[a, -b], [b, a]] (the Cauchy-Riemann equations).
MathRule holomorphic(StringRef Name, std::vector<Complex> Derivatives) {
  MathRule Rule{Name, {}, {}, /*ComplexArgs=*/true};
  for (const Complex &D : Derivatives) {
    Rule.Partials.insert(Rule.Partials.end(), {D.Re, -D.Im});
    Rule.ImagPartials.insert(Rule.ImagPartials.end(), {D.Im, D.Re});
  }
  return Rule;
}

constexpr double Ln2 = numbers::ln2;
constexpr double Ln10 = numbers::ln10;
constexpr double TwoOverSqrtPi = 2.0 * numbers::inv_sqrtpi;
constexpr double Pi = numbers::pi;
constexpr double InvSqrt2Pi = numbers::inv_sqrtpi / numbers::sqrt2;
constexpr double Sqrt2Pi = numbers::sqrt2 / numbers::inv_sqrtpi;
constexpr double SqrtPiOver2 = 0.5 / numbers::inv_sqrtpi;

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
      {"scalbn", {Expr::hook(emitLdexpScale, {Y, X}), std::nullopt}},
      {"scalbln", {Expr::hook(emitLdexpScale, {Y, X}), std::nullopt}},
      // The exponent of x as a float (libcu++'s complex division and
      // logarithm scale by it): piecewise constant.
      {"logb", {Zero}},
      // fdim(x, y) = max(x - y, 0).
      {"fdim", {greater(X, Y), -greater(X, Y)}},
      // nextafter(x, y) moves x by one unit: locally x itself.
      {"nextafter", {One, Zero}},
      // frexp(x, &e) = x · 2^-e with e an integer written through the
      // pointer (no derivative).
      {"frexp", {Expr::hook(emitFrexpScale, {X}), std::nullopt}},
      // modf(x, &i): x - i with i = trunc(x) written through the pointer;
      // preparation adds that store (Modes/LibraryRewrites.h), which gives
      // the written value its derivative, 0.
      {"modf", {One, std::nullopt}},
      // CUDA's device functions that libm does not have (named as
      // DeviceMathLibrary.h's libmNameOfDeviceFunction maps them): the
      // arithmetic of its rounding-mode intrinsics (`__fmul_rz`),
      // `__fdividef`, `__saturatef`, and libdevice's own functions.
      {"enzyme.add", {One, One}},
      {"enzyme.sub", {One, -One}},
      {"enzyme.mul", {Y, X}},
      {"enzyme.div", {1.0 / Y, -(R / Y)}},
      {"enzyme.rcp", {-(R * R)}},
      {"enzyme.saturate", {less(Zero, X) * less(X, One)}},
      {"enzyme.rsqrt", {-0.5 * (R * R * R)}},
      {"enzyme.rcbrt", {-R / (3.0 * X)}},
      {"enzyme.rhypot", {-(X * (R * R * R)), -(Y * (R * R * R))}},
      {"enzyme.sinpi", {Pi * fn("cospi", X)}},
      {"enzyme.cospi", {-(Pi * fn("sinpi", X))}},
      {"enzyme.normcdf", {InvSqrt2Pi * fn("exp", -0.5 * (X * X))}},
      {"enzyme.normcdfinv", {Sqrt2Pi * fn("exp", 0.5 * (R * R))}},
      {"enzyme.erfinv", {SqrtPiOver2 * fn("exp", R * R)}},
      {"enzyme.erfcinv", {-(SqrtPiOver2 * fn("exp", R * R))}},
      // C99 complex functions of z = x + iy (libstdc++'s std::complex
      // functions call them): R^2 -> R ones first.
      {"cabs", {X / R, Y / R}, {}, /*ComplexArgs=*/true},
      {"carg",
       {-Y / (X * X + Y * Y), X / (X * X + Y * Y)},
       {},
       /*ComplexArgs=*/true},
      holomorphic("cexp", {CF}),
      holomorphic("clog", {real(1) / CZ}),
      holomorphic("csqrt", {real(0.5) / CF}),
      holomorphic("cpow", {CW * CF / CZ, CF * LogZ}),
      holomorphic("csin", {{fn("cos", X) * fn("cosh", Y),
                            -(fn("sin", X) * fn("sinh", Y))}}),
      holomorphic("ccos", {{-(fn("sin", X) * fn("cosh", Y)),
                            -(fn("cos", X) * fn("sinh", Y))}}),
      holomorphic("ctan", {1.0 + CF * CF}),
      holomorphic("csinh", {{fn("cosh", X) * fn("cos", Y),
                             fn("sinh", X) * fn("sin", Y)}}),
      holomorphic("ccosh", {{fn("sinh", X) * fn("cos", Y),
                             fn("cosh", X) * fn("sin", Y)}}),
      holomorphic("ctanh", {1.0 - CF * CF}),
      // The compiler runtime's complex product and quotient, which clang
      // calls when an inline product or quotient comes out NaN.
      holomorphic("__muldc3", {CW, CZ}),
      holomorphic("__divdc3", {real(1) / CW, -(CF / CW)}),
  };
}

/// Intrinsics that mean the same as a libm function.
StringRef libmNameOfIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
  // NVVM's approximations (inline PTX that CUDA's half-precision functions
  // write, Core/PtxStatements.h) have the functions' derivatives.
  case Intrinsic::nvvm_sin_approx_f:
  case Intrinsic::nvvm_sin_approx_ftz_f:
    return "sin";
  case Intrinsic::cos:
  case Intrinsic::nvvm_cos_approx_f:
  case Intrinsic::nvvm_cos_approx_ftz_f:
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
  case Intrinsic::nvvm_ex2_approx_f:
  case Intrinsic::nvvm_ex2_approx_ftz_f:
    return "exp2";
  case Intrinsic::exp10:
    return "exp10";
  case Intrinsic::log:
    return "log";
  case Intrinsic::log2:
  case Intrinsic::nvvm_lg2_approx_f:
  case Intrinsic::nvvm_lg2_approx_ftz_f:
    return "log2";
  case Intrinsic::log10:
    return "log10";
  case Intrinsic::pow:
    return "pow";
  case Intrinsic::powi:
    return "powi";
  case Intrinsic::sqrt:
  case Intrinsic::nvvm_sqrt_f:
  case Intrinsic::nvvm_sqrt_rn_f:
  case Intrinsic::nvvm_sqrt_rn_ftz_f:
  case Intrinsic::nvvm_sqrt_rz_f:
  case Intrinsic::nvvm_sqrt_rz_ftz_f:
  case Intrinsic::nvvm_sqrt_rm_f:
  case Intrinsic::nvvm_sqrt_rm_ftz_f:
  case Intrinsic::nvvm_sqrt_rp_f:
  case Intrinsic::nvvm_sqrt_rp_ftz_f:
  case Intrinsic::nvvm_sqrt_rn_d:
  case Intrinsic::nvvm_sqrt_rz_d:
  case Intrinsic::nvvm_sqrt_rm_d:
  case Intrinsic::nvvm_sqrt_rp_d:
    return "sqrt";
  case Intrinsic::fabs:
  case Intrinsic::nvvm_fabs_f:
  case Intrinsic::nvvm_fabs_ftz_f:
  case Intrinsic::nvvm_fabs_d:
    return "fabs";
  case Intrinsic::minnum:
  case Intrinsic::minimum:
    return "fmin";
  case Intrinsic::maxnum:
  case Intrinsic::maximum:
    return "fmax";
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  // NVVM's operations in a rounding mode (libdevice's `__nv_fmaf_ieee_rn`
  // and friends, inlined) have the derivatives of the operations.
  case Intrinsic::nvvm_fma_rn_f:
  case Intrinsic::nvvm_fma_rn_ftz_f:
  case Intrinsic::nvvm_fma_rz_f:
  case Intrinsic::nvvm_fma_rz_ftz_f:
  case Intrinsic::nvvm_fma_rm_f:
  case Intrinsic::nvvm_fma_rm_ftz_f:
  case Intrinsic::nvvm_fma_rp_f:
  case Intrinsic::nvvm_fma_rp_ftz_f:
  case Intrinsic::nvvm_fma_rn_d:
  case Intrinsic::nvvm_fma_rz_d:
  case Intrinsic::nvvm_fma_rm_d:
  case Intrinsic::nvvm_fma_rp_d:
    return "fma";
  case Intrinsic::nvvm_add_rn_f:
  case Intrinsic::nvvm_add_rn_ftz_f:
  case Intrinsic::nvvm_add_rz_f:
  case Intrinsic::nvvm_add_rz_ftz_f:
  case Intrinsic::nvvm_add_rm_f:
  case Intrinsic::nvvm_add_rm_ftz_f:
  case Intrinsic::nvvm_add_rp_f:
  case Intrinsic::nvvm_add_rp_ftz_f:
  case Intrinsic::nvvm_add_rn_d:
  case Intrinsic::nvvm_add_rz_d:
  case Intrinsic::nvvm_add_rm_d:
  case Intrinsic::nvvm_add_rp_d:
    return "enzyme.add";
  case Intrinsic::nvvm_mul_rn_f:
  case Intrinsic::nvvm_mul_rn_ftz_f:
  case Intrinsic::nvvm_mul_rz_f:
  case Intrinsic::nvvm_mul_rz_ftz_f:
  case Intrinsic::nvvm_mul_rm_f:
  case Intrinsic::nvvm_mul_rm_ftz_f:
  case Intrinsic::nvvm_mul_rp_f:
  case Intrinsic::nvvm_mul_rp_ftz_f:
  case Intrinsic::nvvm_mul_rn_d:
  case Intrinsic::nvvm_mul_rz_d:
  case Intrinsic::nvvm_mul_rm_d:
  case Intrinsic::nvvm_mul_rp_d:
    return "enzyme.mul";
  case Intrinsic::nvvm_div_rn_f:
  case Intrinsic::nvvm_div_rn_ftz_f:
  case Intrinsic::nvvm_div_rz_f:
  case Intrinsic::nvvm_div_rz_ftz_f:
  case Intrinsic::nvvm_div_rm_f:
  case Intrinsic::nvvm_div_rm_ftz_f:
  case Intrinsic::nvvm_div_rp_f:
  case Intrinsic::nvvm_div_rp_ftz_f:
  case Intrinsic::nvvm_div_rn_d:
  case Intrinsic::nvvm_div_rz_d:
  case Intrinsic::nvvm_div_rm_d:
  case Intrinsic::nvvm_div_rp_d:
    return "enzyme.div";
  case Intrinsic::nvvm_rcp_rn_f:
  case Intrinsic::nvvm_rcp_rn_ftz_f:
  case Intrinsic::nvvm_rcp_rz_f:
  case Intrinsic::nvvm_rcp_rz_ftz_f:
  case Intrinsic::nvvm_rcp_rm_f:
  case Intrinsic::nvvm_rcp_rm_ftz_f:
  case Intrinsic::nvvm_rcp_rp_f:
  case Intrinsic::nvvm_rcp_rp_ftz_f:
  case Intrinsic::nvvm_rcp_rn_d:
  case Intrinsic::nvvm_rcp_rz_d:
  case Intrinsic::nvvm_rcp_rm_d:
  case Intrinsic::nvvm_rcp_rp_d:
    return "enzyme.rcp";
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

/// The element type of {T, T}, a complex number as a function returns it;
/// null for other types.
Type *complexPartType(Type *Ty) {
  auto *ST = dyn_cast<StructType>(Ty);
  if (!ST || ST->getNumElements() != 2 ||
      ST->getElementType(0) != ST->getElementType(1) ||
      !ST->getElementType(0)->isFloatingPointTy())
    return nullptr;
  return ST->getElementType(0);
}

/// The compiler runtime's complex product and quotient name their part type
/// with a letter (__mulsc3, __divdc3, __mulxc3, __divtc3); the table has
/// the double forms. Empty for other names or a letter other than \p Ty's.
StringRef runtimeComplexName(StringRef Name, Type *Ty) {
  bool Mul = Name.starts_with("__mul");
  if ((!Mul && !Name.starts_with("__div")) || Name.size() != 8 ||
      !Name.ends_with("c3"))
    return "";
  bool Matches;
  switch (Name[5]) {
  case 's':
    Matches = Ty->isFloatTy();
    break;
  case 'd':
    Matches = Ty->isDoubleTy();
    break;
  case 'x':
    Matches = Ty->isX86_FP80Ty();
    break;
  case 't':
    Matches = Ty->isFP128Ty();
    break;
  default:
    Matches = false;
  }
  if (!Matches)
    return "";
  return Mul ? "__muldc3" : "__divdc3";
}

/// Strips the libm suffix that matches the call's floating-point type.
StringRef baseName(StringRef Name, Type *Ty) {
  if (Name.starts_with("__"))
    return runtimeComplexName(Name, Ty);
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
/// A complex result must be {T, T} with T the arguments' type (x86-64's
/// `double complex`; the `float complex` and `long double complex`
/// conventions are restated that way first, LibraryRewrites.h). An argument
/// without a derivative is an integer or a pointer to the integer the function
/// writes (frexp's exponent).
bool signatureMatches(const CallBase &Call, const MathRule &Rule) {
  Type *Ty = ruleType(Call);
  if (!Ty->getScalarType()->isFloatingPointTy() ||
      Call.arg_size() != Rule.Partials.size() ||
      Rule.returnsComplex() != (Ty != Call.getType()))
    return false;
  // Intrinsics on fixed-width vectors (vectorised code) take the rule
  // element by element, where its partials can be evaluated on vectors.
  if (Ty->isVectorTy() &&
      (Rule.returnsComplex() || !isa<FixedVectorType>(Ty) ||
       !isa<IntrinsicInst>(Call) ||
       !all_of(Rule.Partials, [](const std::optional<Expr> &P) {
         return !P || evaluatesOnVectors(*P);
       })))
    return false;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Type *ArgTy = Call.getArgOperand(I)->getType();
    if (Rule.hasPartial(I) ? ArgTy != Ty
                           : !ArgTy->isIntegerTy() && !ArgTy->isPointerTy())
      return false;
  }
  return true;
}

} // namespace

bool isMathFunctionName(StringRef Name) { return table().count(Name); }

const MathRule *findComplexRule(StringRef Name, Type *PartTy) {
  if (!PartTy->isFloatingPointTy())
    return nullptr;
  StringRef Base = baseName(Name, PartTy);
  auto It = Base.empty() ? table().end() : table().find(Base);
  if (It == table().end() || !It->second.ComplexArgs)
    return nullptr;
  return &It->second;
}

Type *ruleType(const CallBase &Call) {
  if (Type *Part = complexPartType(Call.getType()))
    return Part;
  return Call.getType();
}

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
  else if (StringRef Libm = libmNameOfDeviceFunction(Callee->getName());
           !Libm.empty())
    Name = baseName(Libm, ruleType(Call)); // libdevice: its rule, not its body.
  else if (Callee->isDeclaration() || Callee->hasFnAttribute("enzyme_math"))
    Name = baseName(Callee->getName(), ruleType(Call));
  if (Name.empty())
    return nullptr;
  auto It = table().find(Name);
  if (It == table().end() || !signatureMatches(Call, It->second))
    return nullptr;
  return &It->second;
}

} // namespace enzyme::rules
