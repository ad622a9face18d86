//===- TaggedPointerWebs.cpp - Pointers moved as integers through phis ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/TaggedPointerWebs.h"

#include "Analysis/ActivityAnalysis.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

namespace {
/// One web: the phis and selects, in the order found.
struct Web {
  SetVector<Instruction *> Nodes;
  bool Valid = true;
  bool UsedAsAddress = false;
};
} // namespace

static bool isWebNode(const Value *V) {
  return (isa<PHINode>(V) || isa<SelectInst>(V)) &&
         V->getType()->isIntegerTy(64);
}

/// \p V is the bits of a pointer, perhaps tagged, from outside the web: a
/// load (tagged or not), a ptrtoint, a constant.
static bool isPointerBitsLeaf(Value *V) {
  return taggedBitsLoad(V) || isa<PtrToIntInst>(V) || isa<ConstantInt>(V);
}

/// \p U, a user of a web node, uses the bits as an address: an inttoptr,
/// perhaps after flags are set or cleared.
static bool reachesIntToPtr(const User *U, unsigned Depth = 0) {
  if (isa<IntToPtrInst>(U))
    return true;
  if (Depth > 4 || taggedBitsOperand(U) < 0)
    return false;
  return any_of(U->users(), [&](const User *Next) {
    return reachesIntToPtr(Next, Depth + 1);
  });
}

static void collect(Instruction *Start, Web &W) {
  SmallVector<Instruction *, 8> Work = {Start};
  while (!Work.empty() && W.Valid) {
    Instruction *I = Work.pop_back_val();
    if (!W.Nodes.insert(I))
      continue;
    if (W.Nodes.size() > 64) {
      W.Valid = false;
      return;
    }
    for (User *U : I->users()) {
      if (isWebNode(U))
        Work.push_back(cast<Instruction>(U));
      else if (reachesIntToPtr(U))
        W.UsedAsAddress = true;
    }
    unsigned First = isa<SelectInst>(I) ? 1 : 0;
    for (unsigned Op = First; Op < I->getNumOperands(); ++Op) {
      Value *In = I->getOperand(Op);
      if (isWebNode(In))
        Work.push_back(cast<Instruction>(In));
      else if (!isPointerBitsLeaf(In))
        W.Valid = false;
    }
  }
}

/// The pointer that integer \p V outside the web holds, made where \p V is
/// defined (or as a constant).
static Value *asPointer(Value *V, Type *PtrTy) {
  if (auto *C = dyn_cast<Constant>(V))
    return ConstantExpr::getIntToPtr(C, PtrTy);
  auto *I = cast<Instruction>(V);
  IRBuilder<> B(I->getNextNode());
  if (isa<PHINode>(I))
    B.SetInsertPoint(I->getParent()->getFirstNonPHI());
  return B.CreateIntToPtr(V, PtrTy, V->getName() + ".ptr");
}

static void retype(Web &W, Type *PtrTy) {
  DenseMap<Instruction *, Instruction *> Pointers;
  for (Instruction *I : W.Nodes) {
    if (auto *Phi = dyn_cast<PHINode>(I))
      Pointers[I] = PHINode::Create(PtrTy, Phi->getNumIncomingValues(),
                                    Phi->getName() + ".ptr", Phi);
    else
      Pointers[I] = SelectInst::Create(
          cast<SelectInst>(I)->getCondition(), PoisonValue::get(PtrTy),
          PoisonValue::get(PtrTy), I->getName() + ".ptr", I);
  }
  auto Operand = [&](Value *V) -> Value * {
    if (auto *I = dyn_cast<Instruction>(V); I && Pointers.count(I))
      return Pointers[I];
    return asPointer(V, PtrTy);
  };
  for (Instruction *I : W.Nodes) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      auto *New = cast<PHINode>(Pointers[I]);
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
        New->addIncoming(Operand(Phi->getIncomingValue(K)),
                         Phi->getIncomingBlock(K));
    } else {
      auto *New = cast<SelectInst>(Pointers[I]);
      New->setTrueValue(Operand(I->getOperand(1)));
      New->setFalseValue(Operand(I->getOperand(2)));
    }
  }
  for (Instruction *I : W.Nodes) {
    Instruction *At =
        isa<PHINode>(I) ? I->getParent()->getFirstNonPHI() : I->getNextNode();
    IRBuilder<> B(At);
    Value *Bits = B.CreatePtrToInt(Pointers[I], I->getType(), I->getName());
    I->replaceAllUsesWith(Bits);
  }
  for (Instruction *I : W.Nodes)
    I->eraseFromParent();
}

bool retypeTaggedPointerWebs(Function &F) {
  Type *PtrTy = PointerType::getUnqual(F.getContext());
  if (F.getDataLayout().getPointerSizeInBits() != 64)
    return false;
  SmallPtrSet<Instruction *, 16> Seen;
  SmallVector<Web, 4> Webs;
  for (Instruction &I : instructions(F)) {
    if (!isWebNode(&I) || Seen.count(&I))
      continue;
    Web W;
    collect(&I, W);
    Seen.insert(W.Nodes.begin(), W.Nodes.end());
    if (W.Valid && W.UsedAsAddress)
      Webs.push_back(std::move(W));
  }
  for (Web &W : Webs)
    retype(W, PtrTy);
  return !Webs.empty();
}

} // namespace enzyme
