//===- ExclusiveReadGuards.cpp - Run-time checks for plain adjoints -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ExclusiveReadGuards.h"
#include "Analysis/TripCount.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

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

/// The body's flag of a failed point check, created with its report.
static AllocaInst *failedPointFlag(Function &Body) {
  IRBuilder<> B(&*Body.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Failed = B.CreateAlloca(B.getInt8Ty(), nullptr, "tile.failed");
  B.CreateStore(B.getInt8(0), Failed);
  // Every thread reports once, when its body returns.
  for (BasicBlock &BB : Body) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    B.SetInsertPoint(Ret);
    Value *Passed = B.CreateZExt(
        B.CreateICmpEQ(B.CreateLoad(B.getInt8Ty(), Failed), B.getInt8(0)),
        B.getInt32Ty());
    CallInst *Report = B.CreateCall(
        getRuntimeFunction(*Body.getParent(),
                           "__enzyme_rt_omp_plain_adjoints_report"),
        {Passed});
    // It touches the run-time's state only: what the body reads stays
    // unmodified to the reverse pass (ReversePlan.cpp).
    Report->addFnAttr(Attribute::get(Body.getContext(), RuntimeStateOnly));
    Report->setDoesNotThrow();
  }
  return Failed;
}

bool emitTilePointChecks(const TileReadGroup &G, ScalarEvolution &SE,
                         DominatorTree &DT, AllocaInst *&Failed) {
  SmallVector<Value *, 4> Passes;
  for (const TileReadGroup::Member &M : G.Members) {
    GuardBuilder GB(M.Load, SE, DT);
    IRBuilder<> &B = GB.B;
    const std::array<Instruction *, 2> &Points = M.Points;
    Value *Row = GB.expand(M.Coefficients[1 - G.Small]);
    if (!Row || !Row->getType()->isIntegerTy(64))
      return false;
    Value *Holds = B.getTrue();
    Value *W[2];
    Type *I64 = B.getInt64Ty();
    for (unsigned K : {0u, 1u}) {
      W[K] = Points[K];
      if (!G.IndexBits[K])
        continue;
      Value *Point = Points[K];
      W[K] =
          B.CreateSExt(B.CreateTrunc(Point, B.getIntNTy(G.IndexBits[K])), I64);
      // The program's narrow index is the point itself.
      Holds = B.CreateAnd(Holds, B.CreateICmpEQ(W[K], Point));
    }
    // Within a row: 0 <= Step * W + Low and Step * W + High <= Row.
    auto Checked = [&](Intrinsic::ID Op, Value *L, Value *R) {
      Value *Pair = B.CreateBinaryIntrinsic(Op, L, R);
      Holds = B.CreateAnd(Holds, B.CreateNot(B.CreateExtractValue(Pair, 1)));
      return B.CreateExtractValue(Pair, 0);
    };
    Value *InRow =
        Checked(Intrinsic::smul_with_overflow, W[G.Small],
                B.CreateSExtOrTrunc(GB.expand(G.Coefficients[G.Small]), I64));
    Value *First = Checked(Intrinsic::sadd_with_overflow, InRow,
                           ConstantInt::get(I64, G.Low));
    Value *End = Checked(Intrinsic::sadd_with_overflow, InRow,
                         ConstantInt::get(I64, G.High));
    Holds =
        B.CreateAnd(Holds, B.CreateICmpSGE(First, ConstantInt::get(I64, 0)));
    Holds = B.CreateAnd(Holds, B.CreateICmpSLE(End, Row), "tile.point.apart");
    Passes.push_back(Holds);
  }
  if (!Failed)
    Failed = failedPointFlag(*G.Members.front().Load->getFunction());
  for (auto [M, Holds] : zip(G.Members, Passes)) {
    IRBuilder<> B(M.Load);
    Value *Now = B.CreateOr(B.CreateLoad(B.getInt8Ty(), Failed),
                            B.CreateZExt(B.CreateNot(Holds), B.getInt8Ty()));
    B.CreateStore(Now, Failed);
  }
  return true;
}

} // namespace enzyme
