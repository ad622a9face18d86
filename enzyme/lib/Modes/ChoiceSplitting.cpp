//===- ChoiceSplitting.cpp - Reads through a choice of memories ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ChoiceSplitting.h"

#include "Analysis/ActivityAnalysis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace enzyme {

/// The uses of a choice, through GEPs of it.
struct ChoiceUses {
  SmallVector<GetElementPtrInst *, 8> Addresses; // Users before uses.
  SmallVector<LoadInst *, 8> Loads;
  /// Uses that only look at the address (a sanitizer's alignment check, a
  /// comparison), which become a select of the same use of each side.
  SmallVector<Instruction *, 4> Inspections;
};

/// UBSan's object-size check asks how far the address is from the end of
/// its object.
static bool isObjectSize(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::objectsize;
}

/// The uses of \p Choice; false when anything but reads and inspections
/// uses it (a store, a call, another choice), which would need the shadow
/// the choice cannot have.
static bool collectUses(Instruction &Choice, ChoiceUses &Uses) {
  SmallVector<Value *, 8> Work = {&Choice};
  SmallPtrSet<Instruction *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = cast<Instruction>(U);
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        if (GEP->getPointerOperand() != V)
          return false;
        Uses.Addresses.push_back(GEP);
        Work.push_back(GEP);
      } else if (auto *Load = dyn_cast<LoadInst>(I); Load && Load->isSimple()) {
        Uses.Loads.push_back(Load);
      } else if (isa<PtrToIntInst>(I) || isa<ICmpInst>(I) || isObjectSize(*I)) {
        if (Seen.insert(I).second)
          Uses.Inspections.push_back(I);
      } else {
        return false;
      }
    }
  }
  return !Uses.Loads.empty();
}

/// The sides of a choice, and the condition that picks the first.
struct Sides {
  Value *Which;
  Value *First, *Second;
};

/// For a phi, two phis beside it: the incoming pointers with shadows (or
/// that need none) and those without, each with poison on the other's
/// edges, and an i1 phi that tells them apart.
static Sides splitPhi(PHINode &Phi, const ActivityAnalysis &Activity) {
  LLVMContext &Ctx = Phi.getContext();
  unsigned N = Phi.getNumIncomingValues();
  auto At = Phi.getParent()->getFirstNonPHIIt();
  PHINode *With = PHINode::Create(Phi.getType(), N, Phi.getName() + ".shd");
  PHINode *Without =
      PHINode::Create(Phi.getType(), N, Phi.getName() + ".noshd");
  PHINode *Which =
      PHINode::Create(Type::getInt1Ty(Ctx), N, Phi.getName() + ".hasshd");
  for (PHINode *New : {With, Without, Which})
    New->insertBefore(At);
  Value *Poison = PoisonValue::get(Phi.getType());
  for (unsigned I = 0; I < N; ++I) {
    Value *In = Phi.getIncomingValue(I);
    BasicBlock *BB = Phi.getIncomingBlock(I);
    bool Lacks = Activity.needsScratchShadow(In);
    With->addIncoming(Lacks ? Poison : In, BB);
    Without->addIncoming(Lacks ? In : Poison, BB);
    Which->addIncoming(ConstantInt::getBool(Ctx, !Lacks), BB);
  }
  return {Which, With, Without};
}

/// \p V, the choice or an address computed from it, recomputed from
/// \p Side before \p Before.
static Value *rebase(Value *V, Instruction &Choice, Value *Side,
                     Instruction *Before) {
  if (V == &Choice)
    return Side;
  auto *GEP = cast<GetElementPtrInst>(V);
  Value *Base = rebase(GEP->getPointerOperand(), Choice, Side, Before);
  Instruction *Copy = GEP->clone();
  Copy->setOperand(0, Base);
  Copy->insertBefore(Before);
  return Copy;
}

/// Replaces \p Load, which reads through \p Choice, by a branch on
/// \p S.Which to a load through each side.
static void splitLoad(LoadInst &Load, Instruction &Choice, const Sides &S) {
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(S.Which, Load.getIterator(), &ThenTerm,
                                &ElseTerm);
  auto LoadThrough = [&](Value *Side, Instruction *Before) {
    auto *Copy = cast<LoadInst>(Load.clone());
    Copy->setOperand(0, rebase(Load.getPointerOperand(), Choice, Side, Before));
    Copy->insertBefore(Before);
    return Copy;
  };
  LoadInst *First = LoadThrough(S.First, ThenTerm);
  LoadInst *Second = LoadThrough(S.Second, ElseTerm);
  PHINode *Merged =
      PHINode::Create(Load.getType(), 2, Load.getName(), Load.getIterator());
  Merged->addIncoming(First, First->getParent());
  Merged->addIncoming(Second, Second->getParent());
  Merged->setDebugLoc(Load.getDebugLoc());
  Load.replaceAllUsesWith(Merged);
  Load.eraseFromParent();
}

/// Replaces \p Inspection, which only looks at addresses from \p Choice, by a
/// select of the same use of each side.
static void splitInspection(Instruction &Inspection, Instruction &Choice,
                            const SmallPtrSetImpl<Value *> &FromChoice,
                            const Sides &S) {
  auto Copy = [&](Value *Side) {
    Instruction *C = Inspection.clone();
    for (Use &Op : C->operands())
      if (FromChoice.contains(Op.get()))
        Op.set(rebase(Op.get(), Choice, Side, &Inspection));
    C->insertBefore(&Inspection);
    return C;
  };
  Instruction *First = Copy(S.First), *Second = Copy(S.Second);
  auto *Sel = SelectInst::Create(S.Which, First, Second, Inspection.getName(),
                                 Inspection.getIterator());
  Sel->setDebugLoc(Inspection.getDebugLoc());
  Inspection.replaceAllUsesWith(Sel);
  Inspection.eraseFromParent();
}

bool splitReadsThroughMixedChoices(Function &F,
                                   ArrayRef<Activity> ArgActivities,
                                   bool ReturnShadow, bool ContextShadows) {
  bool Changed = false;
  // A load through a split choice may read a pointer that is itself such a
  // choice of the two sides' pointers: a few rounds take those too.
  for (unsigned Round = 0; Round < 4; ++Round) {
    ActivityAnalysis Activity(F, ArgActivities, ReturnShadow, ContextShadows);
    SmallVector<Instruction *, 4> Choices;
    for (Instruction &I : instructions(F))
      if (I.getType()->isPointerTy() && Activity.isShadowed(&I) &&
          Activity.unshadowedChoice(I))
        Choices.push_back(&I);
    bool Split = false;
    for (Instruction *Choice : Choices) {
      ChoiceUses Uses;
      if (!collectUses(*Choice, Uses))
        continue;
      Sides S;
      if (auto *Sel = dyn_cast<SelectInst>(Choice))
        S = {Sel->getCondition(), Sel->getTrueValue(), Sel->getFalseValue()};
      else
        S = splitPhi(cast<PHINode>(*Choice), Activity);
      SmallPtrSet<Value *, 8> FromChoice(Uses.Addresses.begin(),
                                         Uses.Addresses.end());
      FromChoice.insert(Choice);
      for (Instruction *Use : Uses.Inspections)
        splitInspection(*Use, *Choice, FromChoice, S);
      for (LoadInst *Load : Uses.Loads)
        splitLoad(*Load, *Choice, S);
      // The old addresses, users before uses.
      for (GetElementPtrInst *GEP : reverse(Uses.Addresses))
        GEP->eraseFromParent();
      Choice->eraseFromParent();
      Split = true;
    }
    if (!Split)
      break;
    Changed = true;
  }
  return Changed;
}

} // namespace enzyme
