//===- DerivativeExpr.h - Expressions for declarative rules ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A tiny expression language in which a derivative rule states ∂f/∂xᵢ for
/// each argument of f, in terms of the arguments, the result and a few math
/// functions. Rules are data: the forward and reverse generators both
/// evaluate the same expressions (forward: Σ ∂f/∂xᵢ·ẋᵢ, reverse:
/// x̄ᵢ += ∂f/∂xᵢ·ȳ). What cannot be said this way names a C++ hook.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_RULES_DERIVATIVEEXPR_H
#define ENZYME_RULES_DERIVATIVEEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

#include <memory>
#include <vector>

namespace enzyme::rules {

/// Emits IR for an operation that the expression language cannot state
/// (e.g. digamma). Receives the already-emitted operands.
using ExprHook = llvm::Value *(*)(llvm::IRBuilder<> &B,
                                  llvm::ArrayRef<llvm::Value *> Operands);

/// An immutable expression tree node; cheap to copy.
class Expr {
public:
  enum class Kind {
    Argument, ///< the I-th argument of f
    Result,   ///< f's result (part I of a complex result {re, im})
    Constant, ///< a floating-point literal
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Math,    ///< a named math function (intrinsic or libm)
    Less,    ///< 1 if a < b or b is NaN, else 0 (a is what fmin returns)
    Greater, ///< 1 if a > b or b is NaN, else 0 (a is what fmax returns)
    ToFloat, ///< an integer operand converted to f's type
    Hook,    ///< a C++ hook
  };

  Kind kind() const { return Node->K; }
  unsigned argumentIndex() const { return Node->Index; }
  unsigned resultPart() const { return Node->Index; }
  double constant() const { return Node->Value; }
  llvm::StringRef mathName() const { return Node->Name; }
  ExprHook hook() const { return Node->Hook; }
  llvm::ArrayRef<Expr> operands() const { return Node->Operands; }

  static Expr argument(unsigned I);
  static Expr result(unsigned Part = 0);
  static Expr constant(double V);
  static Expr math(llvm::StringRef Name, std::vector<Expr> Operands);
  static Expr compare(Kind K, Expr A, Expr B);
  static Expr toFloat(Expr A);
  static Expr hook(ExprHook Fn, std::vector<Expr> Operands);
  static Expr binary(Kind K, Expr A, Expr B);
  static Expr negate(Expr A);

private:
  struct NodeData {
    Kind K;
    unsigned Index = 0;
    double Value = 0;
    llvm::StringRef Name;
    ExprHook Hook = nullptr;
    std::vector<Expr> Operands;
  };
  explicit Expr(std::shared_ptr<const NodeData> N) : Node(std::move(N)) {}
  static Expr make(NodeData Data);

  std::shared_ptr<const NodeData> Node;
};

inline Expr operator+(Expr A, Expr B) {
  return Expr::binary(Expr::Kind::Add, A, B);
}
inline Expr operator-(Expr A, Expr B) {
  return Expr::binary(Expr::Kind::Sub, A, B);
}
inline Expr operator*(Expr A, Expr B) {
  return Expr::binary(Expr::Kind::Mul, A, B);
}
inline Expr operator/(Expr A, Expr B) {
  return Expr::binary(Expr::Kind::Div, A, B);
}
inline Expr operator-(Expr A) { return Expr::negate(A); }
inline Expr operator+(double A, Expr B) { return Expr::constant(A) + B; }
inline Expr operator-(double A, Expr B) { return Expr::constant(A) - B; }
inline Expr operator*(double A, Expr B) { return Expr::constant(A) * B; }
inline Expr operator/(double A, Expr B) { return Expr::constant(A) / B; }
inline Expr operator+(Expr A, double B) { return A + Expr::constant(B); }
inline Expr operator-(Expr A, double B) { return A - Expr::constant(B); }
inline Expr operator*(Expr A, double B) { return A * Expr::constant(B); }
inline Expr operator/(Expr A, double B) { return A / Expr::constant(B); }

/// True when \p E mentions f's result.
bool mentionsResult(const Expr &E);

/// \p E can be evaluated on vectors, element by element: its math
/// functions are LLVM intrinsics (which take vectors), and it has no hooks
/// and no integer conversions.
bool evaluatesOnVectors(const Expr &E);
/// True when \p E mentions f's argument \p Index.
bool mentionsArgument(const Expr &E, unsigned Index);

/// Emits \p E for a call of f whose arguments are \p Args and whose result
/// is \p Result, in f's floating-point type \p Ty (the type of each part of
/// a complex result).
llvm::Value *emitExpr(const Expr &E, llvm::IRBuilder<> &B, llvm::Type *Ty,
                      llvm::ArrayRef<llvm::Value *> Args, llvm::Value *Result);

/// Emits a call of the math function \p Name (libm spelling for double,
/// e.g. "cos") on \p Operands in type \p Ty: the LLVM intrinsic when there is
/// one, else the libm function with the suffix of \p Ty ("cosf", "cosl").
llvm::Value *emitMathCall(llvm::IRBuilder<> &B, llvm::StringRef Name,
                          llvm::Type *Ty,
                          llvm::ArrayRef<llvm::Value *> Operands);

} // namespace enzyme::rules

#endif // ENZYME_RULES_DERIVATIVEEXPR_H
