//===- FloatBitWebs.cpp - Floats moved as integers -----------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/FloatBitWebs.h"
#include "Analysis/MemoryTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <functional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace enzyme {

namespace {
/// Integer phis and selects that reach each other, and the floating-point
/// type whose bits they carry.
struct FloatBitWeb {
  SmallSetVector<Instruction *, 8> Nodes;
  Type *FloatTy = nullptr;
};
} // namespace

static unsigned bitWidth(const Type *Ty) {
  return Ty->isIntOrIntVectorTy() || Ty->isFPOrFPVectorTy()
             ? Ty->getPrimitiveSizeInBits().getFixedValue()
             : 0;
}

/// \p V moves \p Bits bits of integers without looking at them: a phi, a
/// select, a shuffle of whole vectors of that size, or a bitcast between
/// integer types of that size (unoptimised SSE code reinterprets a
/// `__m128i` as `<4 x i32>` around each shuffle).
static bool isWebNode(const Value *V, unsigned Bits) {
  if (!V->getType()->isIntOrIntVectorTy() || bitWidth(V->getType()) != Bits)
    return false;
  if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(V))
    return bitWidth(Shuffle->getOperand(0)->getType()) == Bits;
  if (auto *Cast = dyn_cast<BitCastInst>(V))
    return Cast->getSrcTy()->isIntOrIntVectorTy();
  return isa<PHINode>(V) || isa<SelectInst>(V);
}

/// The mask that moves the floats of \p FloatTy as \p Shuffle moves the
/// integer lanes of the same bits; false when the integer mask splits a
/// float (or lanes differ in size and the bits do not line up).
static bool floatShuffleMask(const ShuffleVectorInst &Shuffle, Type *FloatTy,
                             SmallVectorImpl<int> &Mask) {
  unsigned IntLanes =
      cast<FixedVectorType>(Shuffle.getType())->getNumElements();
  auto *FloatVecTy = dyn_cast<FixedVectorType>(FloatTy);
  if (!FloatVecTy)
    return false;
  unsigned FloatLanes = FloatVecTy->getNumElements();
  ArrayRef<int> IntMask = Shuffle.getShuffleMask();
  if (IntLanes % FloatLanes == 0) {
    // Several integer lanes per float: each group must move one float.
    unsigned Per = IntLanes / FloatLanes;
    for (unsigned F = 0; F < FloatLanes; ++F) {
      int First = IntMask[F * Per];
      for (unsigned L = 0; L < Per; ++L) {
        int M = IntMask[F * Per + L];
        if (First < 0 ? M >= 0 : (First % Per != 0 || M != First + int(L)))
          return false;
      }
      Mask.push_back(First < 0 ? -1 : First / int(Per));
    }
    return true;
  }
  if (FloatLanes % IntLanes != 0)
    return false;
  // Several floats per integer lane: they move together.
  unsigned Per = FloatLanes / IntLanes;
  for (int M : IntMask)
    for (unsigned L = 0; L < Per; ++L)
      Mask.push_back(M < 0 ? -1 : M * int(Per) + int(L));
  return true;
}

/// The floating-point type of \p IntTy's size whose elements are \p Elem;
/// nullptr when the sizes do not divide.
static Type *floatTypeOfSize(Type *IntTy, Type *Elem) {
  unsigned Bits = IntTy->getPrimitiveSizeInBits().getFixedValue();
  unsigned ElemBits = Elem->getPrimitiveSizeInBits().getFixedValue();
  if (!ElemBits || Bits % ElemBits != 0)
    return nullptr;
  if (!IntTy->isVectorTy())
    return Bits == ElemBits ? Elem : nullptr;
  return FixedVectorType::get(Elem, Bits / ElemBits);
}

/// Grows the web from \p Root; false when one of its inputs or users is
/// not a float's bits moving (integer arithmetic, a comparison, a call), or
/// when nothing (a bitcast, or the memory it moves between) says which
/// floating-point type the bits are.
static bool collectWeb(Instruction *Root, FloatBitWeb &Web,
                       SmallPtrSetImpl<Instruction *> &Visited,
                       const Function *Original) {
  Type *IntTy = Root->getType();
  unsigned Bits = bitWidth(IntTy);
  bool Fits = true;
  auto NoteFloat = [&](Type *Ty) {
    if (!Ty->isFPOrFPVectorTy() || Ty->isVectorTy() != IntTy->isVectorTy() ||
        (Web.FloatTy && Web.FloatTy != Ty))
      Fits = false;
    Web.FloatTy = Ty;
  };
  SmallVector<Instruction *, 8> Work = {Root};
  SmallSetVector<Instruction *, 8> Accesses;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Web.Nodes.insert(I))
      continue;
    Visited.insert(I);
    for (unsigned Op = isa<SelectInst>(I) ? 1 : 0; Op < I->getNumOperands();
         ++Op) {
      Value *V = I->getOperand(Op);
      if (isWebNode(V, Bits))
        Work.push_back(cast<Instruction>(V));
      else if (auto *Cast = dyn_cast<BitCastInst>(V))
        NoteFloat(Cast->getSrcTy());
      else if (auto *Load = dyn_cast<LoadInst>(V))
        Accesses.insert(Load);
      else if (!isa<Constant>(V))
        Fits = false;
    }
    for (User *U : I->users()) {
      auto *Store = dyn_cast<StoreInst>(U);
      if (isWebNode(U, Bits))
        Work.push_back(cast<Instruction>(U));
      else if (auto *Cast = dyn_cast<BitCastInst>(U))
        NoteFloat(Cast->getDestTy());
      else if (!Store || Store->getValueOperand() != I)
        Fits = false;
      else
        Accesses.insert(Store);
    }
  }
  if (Fits && !Web.FloatTy && !Accesses.empty()) {
    IntegerAccessContents Contents = classifyIntegerAccess(
        Accesses.getArrayRef(), Original, /*OnlyMoved=*/true);
    if (Contents.What == IntegerAccessContents::Floats)
      Web.FloatTy = floatTypeOfSize(IntTy, Contents.FloatTy);
  }
  if (!Fits || !Web.FloatTy)
    return false;
  // Integer shuffles must move whole floats.
  SmallVector<int, 8> Mask;
  return all_of(Web.Nodes, [&](Instruction *I) {
    auto *Shuffle = dyn_cast<ShuffleVectorInst>(I);
    Mask.clear();
    return !Shuffle || floatShuffleMask(*Shuffle, Web.FloatTy, Mask);
  });
}

static void retypeWeb(const FloatBitWeb &Web) {
  Type *FloatTy = Web.FloatTy;
  DenseMap<Value *, Value *> Float;
  for (Instruction *I : Web.Nodes) {
    Instruction *New;
    if (isa<BitCastInst>(I))
      continue; // The float of its operand (FloatOf).
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      New = PHINode::Create(FloatTy, Phi->getNumIncomingValues(),
                            Phi->getName() + ".fp", Phi->getIterator());
    } else if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(I)) {
      SmallVector<int, 8> Mask;
      floatShuffleMask(*Shuffle, FloatTy, Mask);
      New = new ShuffleVectorInst(PoisonValue::get(FloatTy),
                                  PoisonValue::get(FloatTy), Mask,
                                  I->getName() + ".fp", I->getIterator());
    } else
      New = SelectInst::Create(
          cast<SelectInst>(I)->getCondition(), PoisonValue::get(FloatTy),
          PoisonValue::get(FloatTy), I->getName() + ".fp", I->getIterator());
    New->setDebugLoc(I->getDebugLoc());
    Float[I] = New;
  }
  // The floating-point value of an input of the web.
  std::function<Value *(Value *)> FloatOf = [&](Value *V) -> Value * {
    if (Value *F = Float.lookup(V))
      return F;
    Value *F;
    auto *Cast = dyn_cast<BitCastInst>(V);
    if (Cast && Web.Nodes.contains(Cast))
      F = FloatOf(Cast->getOperand(0));
    else if (Cast)
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
    if (isa<BitCastInst>(I))
      continue;
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      auto *New = cast<PHINode>(Float[I]);
      for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In)
        New->addIncoming(FloatOf(Phi->getIncomingValue(In)),
                         Phi->getIncomingBlock(In));
    } else if (isa<ShuffleVectorInst>(I)) {
      auto *New = cast<ShuffleVectorInst>(Float[I]);
      New->setOperand(0, FloatOf(I->getOperand(0)));
      New->setOperand(1, FloatOf(I->getOperand(1)));
    } else {
      auto *New = cast<SelectInst>(Float[I]);
      New->setTrueValue(FloatOf(I->getOperand(1)));
      New->setFalseValue(FloatOf(I->getOperand(2)));
    }
  }
  for (Instruction *I : Web.Nodes)
    for (User *U : make_early_inc_range(I->users())) {
      if (auto *Store = dyn_cast<StoreInst>(U)) {
        Store->setOperand(0, FloatOf(I));
      } else if (auto *Cast = dyn_cast<BitCastInst>(U);
                 Cast && !Web.Nodes.contains(Cast)) {
        Cast->replaceAllUsesWith(FloatOf(I));
        Cast->eraseFromParent();
      }
    }
  for (Instruction *I : Web.Nodes)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Web.Nodes)
    I->eraseFromParent();
}

/// Folds bitcasts of bitcasts into one (unoptimised code reinterprets the
/// bits of a __m128d through each intrinsic's own vector type), so that
/// the webs see the floats on both sides; true if something changed.
static bool foldBitcastChains(Function &F) {
  SmallSetVector<BitCastInst *, 8> Bypassed;
  for (Instruction &I : instructions(F)) {
    auto *Cast = dyn_cast<BitCastInst>(&I);
    auto *Inner = Cast ? dyn_cast<BitCastInst>(Cast->getOperand(0)) : nullptr;
    if (!Inner)
      continue;
    Bypassed.insert(Inner);
    Value *Src = Inner->getOperand(0);
    if (Src->getType() != Cast->getType()) {
      Cast->setOperand(0, Src);
      continue;
    }
    Cast->replaceAllUsesWith(Src);
    Bypassed.insert(Cast);
  }
  // The casts bypassed are left without users (else they would look like
  // integer users of the bits).
  SmallVector<BitCastInst *, 8> Left(Bypassed.begin(), Bypassed.end());
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (BitCastInst *&Cast : Left)
      if (Cast && Cast->use_empty()) {
        Cast->eraseFromParent();
        Cast = nullptr;
        Erased = true;
      }
  }
  return !Bypassed.empty();
}

/// \p IntVecTy with \p FloatTy elements, when they have the same width.
static FixedVectorType *asFloatVector(Type *IntVecTy, Type *FloatTy) {
  auto *VecTy = dyn_cast<FixedVectorType>(IntVecTy);
  if (!VecTy || !VecTy->getElementType()->isIntegerTy() ||
      !FloatTy->isFloatingPointTy() ||
      bitWidth(VecTy->getElementType()) != bitWidth(FloatTy))
    return nullptr;
  return FixedVectorType::get(FloatTy, VecTy->getNumElements());
}

/// One sweep of moveVectorLanesAsFloats; a rewritten insertelement may
/// make the one that built its vector readable as floats.
static bool moveLanesOnce(Function &F) {
  SmallVector<Instruction *, 4> Dead;
  SmallSetVector<BitCastInst *, 4> Sources;
  for (Instruction &I : instructions(F)) {
    if (auto *Insert = dyn_cast<InsertElementInst>(&I)) {
      // The float type: of the inserted bits, of the vector inserted into,
      // or of what reads the result back.
      auto *Cast = dyn_cast<BitCastInst>(Insert->getOperand(1));
      // Bits that are a float only as the vector is read: a constant, or
      // an integer load (a double loaded as i64).
      Value *Elem = Insert->getOperand(1);
      if (!isa<Constant>(Elem) && !isa<LoadInst>(Elem))
        Elem = nullptr;
      Type *FloatTy = Cast ? Cast->getSrcTy() : nullptr;
      if (auto *VecCast = dyn_cast<BitCastInst>(Insert->getOperand(0));
          !FloatTy && VecCast && VecCast->getSrcTy()->isVectorTy())
        FloatTy = VecCast->getSrcTy()->getScalarType();
      for (User *U : Insert->users())
        if (auto *Read = dyn_cast<BitCastInst>(U);
            !FloatTy && Read && Read->getDestTy()->isVectorTy())
          FloatTy = Read->getDestTy()->getScalarType();
      FixedVectorType *FloatVecTy =
          FloatTy && (Cast || Elem) ? asFloatVector(Insert->getType(), FloatTy)
                                    : nullptr;
      if (!FloatVecTy || (Cast && Cast->getSrcTy() != FloatTy))
        continue;
      IRBuilder<> B(Insert);
      Value *Floats = B.CreateBitCast(Insert->getOperand(0), FloatVecTy);
      Value *Float =
          Cast ? Cast->getOperand(0) : B.CreateBitCast(Elem, FloatTy);
      Value *Inserted =
          B.CreateInsertElement(Floats, Float, Insert->getOperand(2));
      Insert->replaceAllUsesWith(B.CreateBitCast(Inserted, Insert->getType()));
      Dead.push_back(Insert);
      if (Cast)
        Sources.insert(Cast);
      continue;
    }
    auto *Extract = dyn_cast<ExtractElementInst>(&I);
    if (!Extract || Extract->use_empty())
      continue;
    Type *FloatTy = nullptr;
    for (User *U : Extract->users()) {
      auto *Cast = dyn_cast<BitCastInst>(U);
      if (!Cast || (FloatTy && Cast->getDestTy() != FloatTy)) {
        FloatTy = nullptr;
        break;
      }
      FloatTy = Cast->getDestTy();
    }
    FixedVectorType *FloatVecTy =
        FloatTy ? asFloatVector(Extract->getVectorOperandType(), FloatTy)
                : nullptr;
    if (!FloatVecTy)
      continue;
    IRBuilder<> B(Extract);
    Value *Floats = B.CreateBitCast(Extract->getVectorOperand(), FloatVecTy);
    Value *Extracted =
        B.CreateExtractElement(Floats, Extract->getIndexOperand());
    for (User *U : make_early_inc_range(Extract->users())) {
      U->replaceAllUsesWith(Extracted);
      Dead.push_back(cast<Instruction>(U));
    }
    Dead.push_back(Extract);
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  for (BitCastInst *Cast : Sources)
    if (Cast->use_empty())
      Cast->eraseFromParent();
  // The casts left behind fold into their neighbours.
  if (!Dead.empty())
    foldBitcastChains(F);
  return !Dead.empty();
}

bool moveVectorLanesAsFloats(Function &F) {
  // A vector built of integers and read as floats through an integer of
  // its width (CUDA's `__halves2half2` of a half's bits, in `mov.b32`
  // statements read as IR) is read through one cast once the chain folds.
  bool Changed = foldBitcastChains(F);
  // Each sweep reaches one more insertelement back along a chain; packets
  // have a few lanes.
  for (unsigned Sweep = 0; Sweep < 16 && moveLanesOnce(F); ++Sweep)
    Changed = true;
  return Changed;
}

bool storeFloatBitsAsFloats(Function &F) {
  SmallSetVector<BitCastInst *, 4> Casts;
  for (Instruction &I : instructions(F)) {
    auto *Store = dyn_cast<StoreInst>(&I);
    auto *Cast =
        Store ? dyn_cast<BitCastInst>(Store->getValueOperand()) : nullptr;
    if (!Cast || !Cast->getSrcTy()->isFPOrFPVectorTy() ||
        !Cast->getDestTy()->isIntOrIntVectorTy())
      continue;
    Store->setOperand(0, Cast->getOperand(0));
    // The access's type tag names the integer type it was written with.
    Store->setMetadata(LLVMContext::MD_tbaa, nullptr);
    Casts.insert(Cast);
  }
  for (BitCastInst *Cast : Casts)
    if (Cast->use_empty())
      Cast->eraseFromParent();
  return !Casts.empty();
}

bool loadFloatBitsAsFloats(Function &F) {
  SmallVector<LoadInst *, 8> Loads;
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I);
        Load && Load->isSimple() && Load->getType()->isIntOrIntVectorTy())
      Loads.push_back(Load);
  bool Changed = false;
  for (LoadInst *Load : Loads) {
    DenseMap<Type *, LoadInst *> AsFloat;
    for (User *U : make_early_inc_range(Load->users())) {
      auto *Cast = dyn_cast<BitCastInst>(U);
      if (!Cast || !Cast->getDestTy()->isFPOrFPVectorTy())
        continue;
      LoadInst *&Float = AsFloat[Cast->getDestTy()];
      if (!Float) {
        // Right after the integer load: the same bytes, read as the float
        // they hold.
        Float = new LoadInst(Cast->getDestTy(), Load->getPointerOperand(),
                             Load->getName() + ".fp", /*isVolatile=*/false,
                             Load->getAlign(), std::next(Load->getIterator()));
        Float->copyMetadata(*Load,
                            {LLVMContext::MD_dbg, LLVMContext::MD_alias_scope,
                             LLVMContext::MD_noalias});
      }
      Cast->replaceAllUsesWith(Float);
      Cast->eraseFromParent();
      Changed = true;
    }
    if (Load->use_empty() && !AsFloat.empty())
      Load->eraseFromParent();
  }
  return Changed;
}

bool retypeFloatBitWebs(Function &F, const Function *Original) {
  bool Folded = foldBitcastChains(F);
  // Unoptimised code rebuilds a `struct __half` around each value that
  // lowered assembly hands back (an `insertvalue` nothing reads): such a
  // reader would keep a web from being retyped.
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (isa<InsertValueInst>(I) && I.use_empty()) {
      I.eraseFromParent();
      Folded = true;
    }
  SmallVector<FloatBitWeb, 2> Webs;
  SmallPtrSet<Instruction *, 16> Visited;
  for (Instruction &I : instructions(F)) {
    if (!I.getType()->isIntOrIntVectorTy() ||
        !isWebNode(&I, bitWidth(I.getType())) || Visited.contains(&I))
      continue;
    FloatBitWeb Web;
    if (collectWeb(&I, Web, Visited, Original))
      Webs.push_back(std::move(Web));
  }
  for (const FloatBitWeb &Web : Webs)
    retypeWeb(Web);
  return Folded || !Webs.empty();
}

bool matchJoinedHalves(Value *V, Value *&Lo, Value *&Hi) {
  // SROA inserts the low half with a mask that keeps what zext cleared.
  auto LowHalf =
      m_CombineOr(m_ZExt(m_Value(Lo)),
                  m_c_And(m_ZExt(m_Value(Lo)), m_SpecificInt(0xffffffffULL)));
  return V->getType()->isIntegerTy(64) &&
         match(V, m_c_Or(m_Shl(m_ZExt(m_Value(Hi)), m_SpecificInt(32)),
                         LowHalf)) &&
         Lo->getType()->isIntegerTy(32) && Hi->getType()->isIntegerTy(32);
}

Value *wholeOfHalves(const Value *Lo, const Value *Hi) {
  const Value *Whole;
  if (match(Lo, m_Trunc(m_Value(Whole))) && Whole->getType()->isIntegerTy(64) &&
      match(Hi, m_Trunc(m_LShr(m_Specific(Whole), m_SpecificInt(32)))))
    return const_cast<Value *>(Whole);
  return nullptr;
}

bool joinSplitHalves(Function &F) {
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    Value *Lo, *Hi;
    if (!matchJoinedHalves(&I, Lo, Hi))
      continue;
    if (Value *Whole = wholeOfHalves(Lo, Hi)) {
      I.replaceAllUsesWith(Whole);
      Changed = true;
    }
  }
  return Changed;
}

} // namespace enzyme
