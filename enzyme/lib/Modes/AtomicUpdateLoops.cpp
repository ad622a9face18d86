//===- AtomicUpdateLoops.cpp - Compare-and-swap loops as atomic adds ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/AtomicUpdateLoops.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;

namespace enzyme {

namespace {
/// One compare-and-swap: at Pointer, Desired is written if Expected is
/// there; Found is what was there.
struct CompareAndSwap {
  Instruction *Swap = nullptr;
  Value *Pointer = nullptr, *Expected = nullptr, *Desired = nullptr;
  Value *Found = nullptr;
  AtomicOrdering Ordering = AtomicOrdering::SequentiallyConsistent;
  SyncScope::ID Scope = SyncScope::System;
};

/// The loop around a compare-and-swap that retries it, read as the update
/// it makes: `*Pointer = value(Expected) Op Operand`.
struct UpdateLoop {
  CompareAndSwap Swap;
  BasicBlock *Loop = nullptr, *Exit = nullptr;
  PHINode *Expected = nullptr;
  BinaryOperator *Update = nullptr;
  Value *Operand = nullptr;
  /// The loop's other instructions, which the update replaces.
  SmallVector<Instruction *, 8> Replaced;
};
} // namespace

/// CUDA's atomicCAS, as unoptimised code calls it (clang's header defines
/// it static; the `_block` and `_system` forms only narrow or widen whom
/// the update is atomic for).
static bool isCudaAtomicCas(const Function &F) {
  StringRef Name = F.getName();
  if (!Name.consume_front("_ZL") && !Name.consume_front("_Z"))
    return false;
  return Name.starts_with("9atomicCASP") ||
         Name.starts_with("16atomicCAS_blockP") ||
         Name.starts_with("17atomicCAS_systemP");
}

static std::optional<CompareAndSwap> asCompareAndSwap(Instruction &I) {
  CompareAndSwap CAS;
  CAS.Swap = &I;
  if (auto *Exchange = dyn_cast<AtomicCmpXchgInst>(&I)) {
    if (Exchange->isVolatile())
      return std::nullopt;
    for (User *U : Exchange->users()) {
      auto *Part = dyn_cast<ExtractValueInst>(U);
      if (!Part)
        return std::nullopt;
      if (Part->getIndices()[0] == 0) {
        if (CAS.Found)
          return std::nullopt;
        CAS.Found = Part;
      }
    }
    if (!CAS.Found)
      return std::nullopt;
    CAS.Pointer = Exchange->getPointerOperand();
    CAS.Expected = Exchange->getCompareOperand();
    CAS.Desired = Exchange->getNewValOperand();
    CAS.Ordering = Exchange->getSuccessOrdering();
    CAS.Scope = Exchange->getSyncScopeID();
    return CAS;
  }
  auto *Call = dyn_cast<CallInst>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Call->arg_size() != 3 || !isCudaAtomicCas(*Callee) ||
      !Call->getType()->isIntegerTy())
    return std::nullopt;
  CAS.Pointer = Call->getArgOperand(0);
  CAS.Expected = Call->getArgOperand(1);
  CAS.Desired = Call->getArgOperand(2);
  CAS.Found = Call;
  return CAS;
}

static bool definedIn(const Value *V, const BasicBlock *BB) {
  const auto *I = dyn_cast<Instruction>(V);
  return I && I->getParent() == BB;
}

/// The integer whose bits the float \p V is (a bitcast of it), or null.
static Value *bitsOfFloat(Value *V) {
  auto *Cast = dyn_cast<BitCastInst>(V);
  return Cast && Cast->getSrcTy()->isIntegerTy() ? Cast->getOperand(0)
                                                 : nullptr;
}

/// \p CAS retried in a loop of one block until it succeeds, writing the
/// float it expected plus or minus a value from outside the loop, and
/// nothing else in the loop.
static std::optional<UpdateLoop> asUpdateLoop(const CompareAndSwap &CAS) {
  UpdateLoop L;
  L.Swap = CAS;
  L.Loop = CAS.Swap->getParent();
  auto *Retry = dyn_cast<BranchInst>(L.Loop->getTerminator());
  L.Expected = dyn_cast<PHINode>(CAS.Expected);
  if (!Retry || !Retry->isConditional() || !L.Expected ||
      L.Expected->getParent() != L.Loop ||
      L.Expected->getNumIncomingValues() != 2 ||
      L.Expected->getBasicBlockIndex(L.Loop) < 0 ||
      L.Expected->getIncomingValueForBlock(L.Loop) != CAS.Found ||
      definedIn(CAS.Pointer, L.Loop))
    return std::nullopt;

  // Leaves once the value found is the one expected (or the swap says it
  // succeeded).
  Value *Done = Retry->getCondition();
  unsigned ExitSide;
  if (auto *Compare = dyn_cast<ICmpInst>(Done);
      Compare && Compare->isEquality() &&
      ((Compare->getOperand(0) == L.Expected &&
        Compare->getOperand(1) == CAS.Found) ||
       (Compare->getOperand(1) == L.Expected &&
        Compare->getOperand(0) == CAS.Found)))
    ExitSide = Compare->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1;
  else if (auto *Part = dyn_cast<ExtractValueInst>(Done);
           Part && Part->getAggregateOperand() == CAS.Swap &&
           Part->getIndices()[0] == 1)
    ExitSide = 0;
  else
    return std::nullopt;
  L.Exit = Retry->getSuccessor(ExitSide);
  if (Retry->getSuccessor(1 - ExitSide) != L.Loop || L.Exit == L.Loop)
    return std::nullopt;

  // Writes the bits of value(expected) + v, v + value(expected) or
  // value(expected) - v.
  auto *DesiredCast = dyn_cast<BitCastInst>(CAS.Desired);
  L.Update = DesiredCast ? dyn_cast<BinaryOperator>(DesiredCast->getOperand(0))
                         : nullptr;
  if (!L.Update || !L.Update->getType()->isFloatingPointTy())
    return std::nullopt;
  Value *Current = nullptr;
  for (unsigned Side = 0; Side < 2 && !Current; ++Side) {
    if (L.Update->getOpcode() == Instruction::FSub && Side == 1)
      break;
    Value *Bits = L.Update->getOperand(Side);
    if (bitsOfFloat(Bits) == L.Expected) {
      Current = Bits;
      L.Operand = L.Update->getOperand(1 - Side);
    }
  }
  if (!Current || definedIn(L.Operand, L.Loop) ||
      (L.Update->getOpcode() != Instruction::FAdd &&
       L.Update->getOpcode() != Instruction::FSub))
    return std::nullopt;

  // Nothing else happens in the loop, and only the value found (which is
  // the one expected, on the way out) is read after it.
  for (Instruction &I : *L.Loop) {
    bool Part = &I == L.Expected || &I == Current || &I == L.Update ||
                &I == DesiredCast || &I == CAS.Swap || &I == CAS.Found ||
                &I == Done || &I == Retry || isa<DbgInfoIntrinsic>(I) ||
                (isa<ExtractValueInst>(I) && I.getOperand(0) == CAS.Swap);
    if (!Part)
      return std::nullopt;
    bool ReadAfter = any_of(I.users(), [&](const User *U) {
      return cast<Instruction>(U)->getParent() != L.Loop;
    });
    if (ReadAfter && &I != CAS.Found && &I != L.Expected)
      return std::nullopt;
    if (&I != L.Expected && !I.isTerminator())
      L.Replaced.push_back(&I);
  }
  return L;
}

/// Makes \p L the one atomic update it retries.
static void raise(UpdateLoop &L) {
  CompareAndSwap &CAS = L.Swap;
  Type *BitsTy = L.Expected->getType();
  IRBuilder<> B(CAS.Swap);
  AtomicRMWInst *Update = B.CreateAtomicRMW(
      L.Update->getOpcode() == Instruction::FAdd ? AtomicRMWInst::FAdd
                                                 : AtomicRMWInst::FSub,
      CAS.Pointer, L.Operand, MaybeAlign(), CAS.Ordering, CAS.Scope);
  Update->setDebugLoc(CAS.Swap->getDebugLoc());
  Value *Before = B.CreateBitCast(Update, BitsTy);
  for (Value *Old : {CAS.Found, static_cast<Value *>(L.Expected)})
    Old->replaceUsesWithIf(Before, [&](Use &U) {
      return cast<Instruction>(U.getUser())->getParent() != L.Loop;
    });

  // The update is made once: the loop is left at once, and what the loop
  // computed goes (the swap, the sum, the comparison, the bits).
  Instruction *Retry = L.Loop->getTerminator();
  BranchInst::Create(L.Exit, Retry);
  Retry->eraseFromParent();
  L.Expected->removeIncomingValue(L.Loop, /*DeletePHIIfEmpty=*/false);
  for (Instruction *I : L.Replaced)
    I->dropAllReferences();
  for (Instruction *I : L.Replaced)
    I->eraseFromParent();
  Value *Initial = L.Expected->getIncomingValue(0);
  L.Expected->replaceAllUsesWith(Initial);
  L.Expected->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(Initial);
}

bool raiseAtomicUpdateLoops(Function &F) {
  SmallVector<UpdateLoop, 2> Loops;
  for (Instruction &I : instructions(F))
    if (std::optional<CompareAndSwap> CAS = asCompareAndSwap(I))
      if (std::optional<UpdateLoop> L = asUpdateLoop(*CAS))
        Loops.push_back(*L);
  for (UpdateLoop &L : Loops)
    raise(L);
  return !Loops.empty();
}

} // namespace enzyme
