//===- SpecialFunctions.h - Hooks for rules beyond libm ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Derivatives that need a function libm does not have (digamma for lgamma
/// and tgamma) or operands of mixed types (ldexp). Each hook emits IR.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_RULES_SPECIALFUNCTIONS_H
#define ENZYME_RULES_SPECIALFUNCTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

namespace enzyme::rules {

/// ψ(x), the digamma function, through an internal helper function emitted
/// once per module and type.
llvm::Value *emitDigamma(llvm::IRBuilder<> &B,
                         llvm::ArrayRef<llvm::Value *> Operands);

/// 2ⁿ in the type of the call being differentiated, for ∂ldexp(x, n)/∂x.
/// The type comes from the insertion point's pending rule (B's default FP
/// type is not enough), so the operand list is {n, x}.
llvm::Value *emitLdexpScale(llvm::IRBuilder<> &B,
                            llvm::ArrayRef<llvm::Value *> Operands);

/// ∂frexp(x, &e)/∂x = 2^-e, with e the exponent frexp computes for x
/// (llvm.frexp); 1 where x is 0, infinite or NaN (frexp returns x).
/// Operands {x}.
llvm::Value *emitFrexpScale(llvm::IRBuilder<> &B,
                            llvm::ArrayRef<llvm::Value *> Operands);

/// ∂pow(x, y)/∂y = pow(x, y) · log(x), and 0 where pow(x, y) is 0: at
/// x = 0 the power is flat in y (y > 0), but log(0) = -inf would make the
/// product 0 · -inf = NaN. Operands {pow(x, y), log(x)}.
llvm::Value *emitPowExponentPartial(llvm::IRBuilder<> &B,
                                    llvm::ArrayRef<llvm::Value *> Operands);

} // namespace enzyme::rules

#endif // ENZYME_RULES_SPECIALFUNCTIONS_H
