//===- FloatBitWebs.cpp - Floats moved as integers -----------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/FloatBitWebs.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

namespace {
/// Integer phis and selects that reach each other, and the floating-point
/// type whose bits they carry.
struct FloatBitWeb {
  SmallSetVector<Instruction *, 8> Nodes;
  Type *FloatTy = nullptr;
};
} // namespace

static bool isWebNode(const Value *V, const Type *IntTy) {
  return (isa<PHINode>(V) || isa<SelectInst>(V)) && V->getType() == IntTy;
}

/// Grows the web from \p Root; false when one of its inputs or users is
/// not a float's bits moving (integer arithmetic, a comparison, a call), or
/// when nothing says which floating-point type the bits are.
static bool collectWeb(Instruction *Root, FloatBitWeb &Web,
                       SmallPtrSetImpl<Instruction *> &Visited) {
  Type *IntTy = Root->getType();
  bool Fits = true;
  auto NoteFloat = [&](Type *Ty) {
    if (!Ty->isFloatingPointTy() || (Web.FloatTy && Web.FloatTy != Ty))
      Fits = false;
    Web.FloatTy = Ty;
  };
  SmallVector<Instruction *, 8> Work = {Root};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Web.Nodes.insert(I))
      continue;
    Visited.insert(I);
    for (unsigned Op = isa<SelectInst>(I) ? 1 : 0; Op < I->getNumOperands();
         ++Op) {
      Value *V = I->getOperand(Op);
      if (isWebNode(V, IntTy))
        Work.push_back(cast<Instruction>(V));
      else if (auto *Cast = dyn_cast<BitCastInst>(V))
        NoteFloat(Cast->getSrcTy());
      else if (!isa<LoadInst>(V) && !isa<Constant>(V))
        Fits = false;
    }
    for (User *U : I->users()) {
      auto *Store = dyn_cast<StoreInst>(U);
      if (isWebNode(U, IntTy))
        Work.push_back(cast<Instruction>(U));
      else if (auto *Cast = dyn_cast<BitCastInst>(U))
        NoteFloat(Cast->getDestTy());
      else if (!Store || Store->getValueOperand() != I)
        Fits = false;
    }
  }
  return Fits && Web.FloatTy;
}

static void retypeWeb(const FloatBitWeb &Web) {
  Type *FloatTy = Web.FloatTy;
  DenseMap<Value *, Value *> Float;
  for (Instruction *I : Web.Nodes) {
    Instruction *New;
    if (auto *Phi = dyn_cast<PHINode>(I))
      New = PHINode::Create(FloatTy, Phi->getNumIncomingValues(),
                            Phi->getName() + ".fp", Phi->getIterator());
    else
      New = SelectInst::Create(
          cast<SelectInst>(I)->getCondition(), PoisonValue::get(FloatTy),
          PoisonValue::get(FloatTy), I->getName() + ".fp", I->getIterator());
    New->setDebugLoc(I->getDebugLoc());
    Float[I] = New;
  }
  // The floating-point value of an input of the web.
  auto FloatOf = [&](Value *V) -> Value * {
    if (Value *F = Float.lookup(V))
      return F;
    Value *F;
    if (auto *Cast = dyn_cast<BitCastInst>(V))
      F = Cast->getOperand(0);
    else if (auto *C = dyn_cast<Constant>(V))
      F = ConstantExpr::getBitCast(C, FloatTy);
    else
      F = new BitCastInst(V, FloatTy, V->getName() + ".fp",
                          cast<Instruction>(V)->getNextNode()->getIterator());
    Float[V] = F;
    return F;
  };
  for (Instruction *I : Web.Nodes) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      auto *New = cast<PHINode>(Float[I]);
      for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In)
        New->addIncoming(FloatOf(Phi->getIncomingValue(In)),
                         Phi->getIncomingBlock(In));
    } else {
      auto *New = cast<SelectInst>(Float[I]);
      New->setTrueValue(FloatOf(I->getOperand(1)));
      New->setFalseValue(FloatOf(I->getOperand(2)));
    }
  }
  for (Instruction *I : Web.Nodes)
    for (User *U : make_early_inc_range(I->users())) {
      if (auto *Store = dyn_cast<StoreInst>(U)) {
        Store->setOperand(0, Float[I]);
      } else if (auto *Cast = dyn_cast<BitCastInst>(U)) {
        Cast->replaceAllUsesWith(Float[I]);
        Cast->eraseFromParent();
      }
    }
  for (Instruction *I : Web.Nodes)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Web.Nodes)
    I->eraseFromParent();
}

bool retypeFloatBitWebs(Function &F) {
  SmallVector<FloatBitWeb, 2> Webs;
  SmallPtrSet<Instruction *, 16> Visited;
  for (Instruction &I : instructions(F)) {
    if (!I.getType()->isIntegerTy() || !isWebNode(&I, I.getType()) ||
        Visited.contains(&I))
      continue;
    FloatBitWeb Web;
    if (collectWeb(&I, Web, Visited))
      Webs.push_back(std::move(Web));
  }
  for (const FloatBitWeb &Web : Webs)
    retypeWeb(Web);
  return !Webs.empty();
}

} // namespace enzyme
