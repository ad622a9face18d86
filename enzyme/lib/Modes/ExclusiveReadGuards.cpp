//===- ExclusiveReadGuards.cpp - Run-time checks for plain adjoints -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ExclusiveReadGuards.h"
#include "Analysis/TripCount.h"

#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace enzyme {

namespace {
/// Builds values at one point of the body (a loop's preheader) from values
/// the same in every thread that may be computed later (a load of a shared
/// pointer inside the loop): those are computed again there, when that is
/// safe (the loads dereferenceable).
class GuardBuilder {
public:
  GuardBuilder(Instruction *At, ScalarEvolution &SE, DominatorTree &DT)
      : B(At), At(At), SE(SE), DT(DT), DL(At->getDataLayout()) {}

  Value *available(Value *V) {
    if (isa<Constant, Argument>(V))
      return V;
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return nullptr;
    if (DT.dominates(I, At))
      return I;
    if (Value *Copy = Copies.lookup(I))
      return Copy;
    bool Copyable = isa<LoadInst, GetElementPtrInst, CastInst, CmpInst,
                        SelectInst, FreezeInst>(I) ||
                    (isa<BinaryOperator>(I) && !I->isIntDivRem());
    if (!Copyable || I->mayWriteToMemory())
      return nullptr;
    SmallVector<Value *, 4> Operands;
    for (Value *Op : I->operands()) {
      Operands.push_back(available(Op));
      if (!Operands.back())
        return nullptr;
    }
    if (auto *Load = dyn_cast<LoadInst>(I))
      if (!Load->isSimple() ||
          !isSafeToLoadUnconditionally(Operands[0], Load->getType(),
                                       Load->getAlign(), DL, At, nullptr, &DT))
        return nullptr;
    Instruction *Copy = I->clone();
    for (auto [N, Op] : enumerate(Operands))
      Copy->setOperand(N, Op);
    Copy->insertBefore(At);
    Copies[I] = Copy;
    return Copy;
  }

  /// \p S, an expression of values the same in every thread.
  Value *expand(const SCEV *S) {
    return emitExpression(S, SE, B, [&](Value *V) { return available(V); });
  }

  IRBuilder<> B;

private:
  Instruction *At;
  ScalarEvolution &SE;
  DominatorTree &DT;
  const DataLayout &DL;
  DenseMap<Instruction *, Value *> Copies;
};

/// Where a group reads over the construct's whole iteration space.
struct Extent {
  /// The first byte of the element of iteration 0 (`Base + Start`).
  Value *Origin;
  /// The first byte read and one past the last.
  Value *Low, *High;
};
} // namespace

static std::optional<Extent> extentOf(const ReadGroup &G, GuardBuilder &GB) {
  IRBuilder<> &B = GB.B;
  const IterationSpace &Space = *G.Space;
  Value *Base = GB.available(G.Base);
  Value *Start = GB.expand(G.Start);
  Value *First = GB.available(Space.First), *End = GB.available(Space.End);
  Value *Shift = Space.Shift ? GB.available(Space.Shift) : nullptr;
  if (!Base || !Start || !First || !End || (Space.Shift && !Shift) ||
      First->getType() != End->getType())
    return std::nullopt;
  Value *Last = Space.EndInclusive
                    ? End
                    : B.CreateSub(End, ConstantInt::get(End->getType(), 1));
  Type *OffsetTy = Start->getType();
  // The loop's counter runs from First + Shift to Last + Shift.
  auto Counter = [&](Value *N) {
    Value *Wide = B.CreateSExtOrTrunc(N, OffsetTy);
    return Shift ? B.CreateAdd(Wide, B.CreateSExtOrTrunc(Shift, OffsetTy))
                 : Wide;
  };
  auto ByteAt = [&](Value *N, int64_t Offset) {
    Value *Bytes = B.CreateAdd(
        Start, B.CreateMul(Counter(N), ConstantInt::get(OffsetTy, G.Stride)));
    return B.CreateGEP(B.getInt8Ty(), Base,
                       B.CreateAdd(Bytes, ConstantInt::get(OffsetTy, Offset)));
  };
  bool Up = G.Stride > 0;
  return Extent{B.CreateGEP(B.getInt8Ty(), Base, Start),
                ByteAt(Up ? First : Last, G.Low),
                ByteAt(Up ? Last : First, G.High)};
}

Value *emitExclusiveReadGuard(const ReadGroup &G, ArrayRef<ReadGroup> All,
                              ScalarEvolution &SE, DominatorTree &DT) {
  BasicBlock *Preheader = G.L->getLoopPreheader();
  if (!Preheader || !G.Space)
    return nullptr;
  GuardBuilder GB(Preheader->getTerminator(), SE, DT);
  IRBuilder<> &B = GB.B;
  Value *Holds = B.getTrue();
  if (G.IndexBits) {
    // At most 2^IndexBits iterations: Last - First < 2^IndexBits.
    Value *First = GB.available(G.Space->First);
    Value *End = GB.available(G.Space->End);
    if (!First || !End || First->getType() != End->getType())
      return nullptr;
    auto *Ty = cast<IntegerType>(End->getType());
    if (Ty->getBitWidth() > G.IndexBits) {
      Value *Span = B.CreateSub(End, First);
      APInt Most = APInt::getLowBitsSet(Ty->getBitWidth(), G.IndexBits);
      if (!G.Space->EndInclusive)
        Most += 1;
      Holds = B.CreateICmpULE(Span, ConstantInt::get(Ty, Most),
                              "exclusive.index.fits");
    }
  }
  if (!G.ApartFrom.empty()) {
    std::optional<Extent> Mine = extentOf(G, GB);
    if (!Mine)
      return nullptr;
    for (unsigned M : G.ApartFrom) {
      const ReadGroup &H = All[M];
      std::optional<Extent> Theirs = H.Space ? extentOf(H, GB) : std::nullopt;
      if (!Theirs)
        return nullptr;
      Value *Apart = B.CreateOr(B.CreateICmpULE(Mine->High, Theirs->Low),
                                B.CreateICmpULE(Theirs->High, Mine->Low),
                                "exclusive.apart");
      // The same element in every iteration (two views of one array) is
      // read by one thread too, if both groups fit in one stride.
      if (G.Stride == H.Stride &&
          std::max(G.High, H.High) - std::min(G.Low, H.Low) <=
              std::abs(G.Stride))
        Apart = B.CreateOr(Apart, B.CreateICmpEQ(Mine->Origin, Theirs->Origin),
                           "exclusive.aligned");
      Holds = B.CreateAnd(Holds, Apart);
    }
  }
  if (isa<Constant>(Holds))
    return Holds;
  Holds->setName("exclusive.reads");
  return Holds;
}

} // namespace enzyme
