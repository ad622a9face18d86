//===- UnreachedDerivatives.cpp - Active values whose adjoint is zero -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A value that depends on an active input but whose derivative reaches
/// nothing (it is unused, only compared, only converted to an integer, or
/// only feeds other such values) has a zero adjoint and a tangent nobody
/// reads. Differentiating it anyway is not only slower: the reverse pass
/// multiplies that zero adjoint by the value's partial derivatives, and
/// where a partial is infinite or NaN (`sqrt` at 0, `log` at 0, an unused
/// `sqrt(-x)` at -O0, where errno keeps the call) the product is NaN, which
/// then poisons the gradient of the input. Such values are inactive. So
/// is what a function returns when its caller takes no derivative of it
/// (a call whose result is unused).
///
//===----------------------------------------------------------------------===//

#include "Analysis/ActivityAnalysis.h"
#include "Rules/MathRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

namespace {

/// Where the derivative of an operand of an instruction goes.
enum class OperandDerivative {
  /// Nowhere: a comparison or a conversion to an integer.
  Dropped,
  /// Into the instruction's own result, and only there: arithmetic, a
  /// choice, a lane move, a math function without memory operands.
  ThroughResult,
  /// Somewhere else (memory, a callee, the caller): it counts.
  Escapes,
};

} // namespace

/// A floating-point value (scalar, vector or aggregate) without pointers.
static bool holdsOnlyFloats(const Type *Ty) {
  auto *T = const_cast<Type *>(Ty);
  return isDifferentiableType(T) && !carriesPointers(T);
}

/// \p ReturnDerivative: the caller takes the derivative of the result.
static OperandDerivative operandDerivative(const Instruction &User,
                                           bool ReturnDerivative) {
  if (isa<ReturnInst>(User))
    return ReturnDerivative ? OperandDerivative::Escapes
                            : OperandDerivative::Dropped;
  if (isa<FCmpInst>(User) || isa<FPToSIInst>(User) || isa<FPToUIInst>(User))
    return OperandDerivative::Dropped;
  if (const auto *Intrinsic = dyn_cast<IntrinsicInst>(&User)) {
    switch (Intrinsic->getIntrinsicID()) {
    case Intrinsic::is_fpclass:
    case Intrinsic::lround:
    case Intrinsic::llround:
    case Intrinsic::lrint:
    case Intrinsic::llrint:
      return OperandDerivative::Dropped;
    default:
      break;
    }
  }
  bool MovesValues =
      isa<BinaryOperator>(User) || isa<UnaryOperator>(User) ||
      isa<FPExtInst>(User) || isa<FPTruncInst>(User) || isa<SelectInst>(User) ||
      isa<PHINode>(User) || isa<ExtractElementInst>(User) ||
      isa<InsertElementInst>(User) || isa<ShuffleVectorInst>(User) ||
      isa<ExtractValueInst>(User) || isa<InsertValueInst>(User) ||
      isa<FreezeInst>(User);
  if (const auto *Call = dyn_cast<CallBase>(&User))
    MovesValues =
        rules::findMathRule(*Call) && none_of(Call->args(), [](const Use &Arg) {
          return Arg->getType()->isPointerTy();
        });
  return MovesValues && holdsOnlyFloats(User.getType())
             ? OperandDerivative::ThroughResult
             : OperandDerivative::Escapes;
}

void ActivityAnalysis::dropUnreachedDerivatives(Function &F,
                                                bool ReturnDerivative) {
  SmallPtrSet<const Value *, 32> Reaches;
  SmallVector<const Instruction *, 32> Worklist;
  auto MarkReaches = [&](const Value *V) {
    if (Active.count(V) && Reaches.insert(V).second)
      if (const auto *I = dyn_cast<Instruction>(V))
        Worklist.push_back(I);
  };
  for (Instruction &I : instructions(F))
    if (operandDerivative(I, ReturnDerivative) == OperandDerivative::Escapes)
      for (const Use &Op : I.operands())
        MarkReaches(Op.get());
  // An operand of an instruction whose derivative reaches somewhere, and
  // which passes derivatives only through its result, reaches there too.
  while (!Worklist.empty()) {
    const Instruction *I = Worklist.pop_back_val();
    if (operandDerivative(*I, ReturnDerivative) ==
        OperandDerivative::ThroughResult)
      for (const Use &Op : I->operands())
        MarkReaches(Op.get());
  }
  SmallVector<const Value *, 8> Unreached;
  for (const Value *V : Active)
    if (isa<Instruction>(V) && holdsOnlyFloats(V->getType()) &&
        !Reaches.count(V))
      Unreached.push_back(V);
  for (const Value *V : Unreached)
    Active.erase(V);
}

} // namespace enzyme
