//===- MagicRounding.cpp - Rounding by adding a large constant ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/MagicRounding.h"

#include "Core/DeviceMathLibrary.h"

#include "llvm/ADT/StringSwitch.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace enzyme {

/// \p V is a constant M of its type whose ulp is 1: 2^p or 1.5 * 2^p, p the
/// type's mantissa bits (23 for float, 52 for double, 10 for half).
static bool isRoundingConstant(const Value *V) {
  const auto *C = dyn_cast<ConstantFP>(V);
  if (!C || !C->getType()->isIEEELikeFPTy())
    return false;
  const fltSemantics &Sem = C->getType()->getFltSemantics();
  int Precision = int(APFloat::semanticsPrecision(Sem)) - 1;
  APFloat Power =
      scalbn(APFloat::getOne(Sem), Precision, APFloat::rmNearestTiesToEven);
  APFloat OneAndHalf = Power;
  OneAndHalf.multiply(APFloat(Sem, "1.5"), APFloat::rmNearestTiesToEven);
  const APFloat &M = C->getValueAPF();
  return M.bitwiseIsEqual(Power) || M.bitwiseIsEqual(OneAndHalf);
}

/// What \p V computes, where it adds, subtracts or fuses a multiply and an
/// add: as IR, or as CUDA's arithmetic in a rounding mode (`__fsub_rn`,
/// `__fmaf_rn`: libdevice calls when the engine runs).
enum class Operation { Other, Add, Sub, Fma };
static Operation operationOf(const Value *V) {
  if (match(V, m_FAdd(m_Value(), m_Value())))
    return Operation::Add;
  if (match(V, m_FSub(m_Value(), m_Value())))
    return Operation::Sub;
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return Operation::Other;
  if (Callee->getIntrinsicID() == Intrinsic::fma ||
      Callee->getIntrinsicID() == Intrinsic::fmuladd)
    return Operation::Fma;
  return StringSwitch<Operation>(libmNameOfDeviceFunction(Callee->getName()))
      .Cases("enzyme.addf", "enzyme.add", Operation::Add)
      .Cases("enzyme.subf", "enzyme.sub", Operation::Sub)
      .Cases("fmaf", "fma", Operation::Fma)
      .Default(Operation::Other);
}

static const Value *operand(const Value *V, unsigned N) {
  if (const auto *Call = dyn_cast<CallBase>(V))
    return Call->getArgOperand(N);
  return cast<Instruction>(V)->getOperand(N);
}

/// \p Sum adds the constant \p M to something: `y + M`, `M + y`, or
/// `fma(a, b, M)`.
static bool addsConstant(const Value *Sum, const Value *M) {
  switch (operationOf(Sum)) {
  case Operation::Add:
    return operand(Sum, 0) == M || operand(Sum, 1) == M;
  case Operation::Fma:
    return operand(Sum, 2) == M;
  default:
    return false;
  }
}

/// \p I subtracts a rounding constant M from a sum that added it: `S - M`,
/// or `S + -M` as InstCombine writes it.
static bool subtractsAddedConstant(const Instruction &I) {
  switch (operationOf(&I)) {
  case Operation::Sub:
    return isRoundingConstant(operand(&I, 1)) &&
           addsConstant(operand(&I, 0), operand(&I, 1));
  case Operation::Add:
    for (unsigned K : {0u, 1u}) {
      const auto *C = dyn_cast<ConstantFP>(operand(&I, K));
      if (!C || !C->isNegative())
        continue;
      Constant *M = ConstantFP::get(C->getType(), neg(C->getValueAPF()));
      if (isRoundingConstant(M) && addsConstant(operand(&I, 1 - K), M))
        return true;
    }
    return false;
  default:
    return false;
  }
}

bool markMagicRounding(Function &F) {
  SmallVector<Instruction *, 4> Roundings;
  for (Instruction &I : instructions(F))
    if (subtractsAddedConstant(I))
      Roundings.push_back(&I);
  for (Instruction *Rounding : Roundings) {
    IRBuilder<> B(Rounding->getNextNode());
    Value *Marked = B.CreateUnaryIntrinsic(Intrinsic::roundeven, Rounding);
    Rounding->replaceUsesWithIf(Marked,
                                [&](Use &U) { return U.getUser() != Marked; });
  }
  return !Roundings.empty();
}

} // namespace enzyme
