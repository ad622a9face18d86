//===- ParallelTileReads.cpp - Reads at the points of a Kokkos tile -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The tile reads of ParallelLoopReads.h: a read in the two loops of an
/// inlined Kokkos MDRange tile (Modes/KokkosTileLoops.h) whose address is
/// linear in the tile's two points, with coefficients the same in every
/// thread.
///
//===----------------------------------------------------------------------===//

#include "Analysis/ParallelLoopReads.h"
#include "Core/KokkosRuntime.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

namespace {
/// Rewrites an address in terms of a tile's two points: `sext(trunc(P))`
/// (an `int` index) or, where the address uses P at full width, the
/// counter of P's loop, becomes a placeholder for the point's value.
class PointTerms : public SCEVRewriteVisitor<PointTerms> {
public:
  PointTerms(ScalarEvolution &SE, ArrayRef<const SCEV *> Truncated,
             ArrayRef<const SCEVAddRecExpr *> Full,
             ArrayRef<const SCEV *> Placeholders)
      : SCEVRewriteVisitor(SE), Truncated(Truncated), Full(Full),
        Placeholders(Placeholders) {}

  const SCEV *visit(const SCEV *S) {
    for (unsigned K : {0u, 1u})
      if (Truncated[K] && S == Truncated[K])
        return Placeholders[K];
    return SCEVRewriteVisitor::visit(S);
  }

  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *AR) {
    for (unsigned K : {0u, 1u}) {
      // {A,+,B} over the point's loop is A + B * (P - Offset).
      if (!Full[K] || AR->getLoop() != Full[K]->getLoop() || !AR->isAffine())
        continue;
      const SCEV *Counter =
          SE.getMinusSCEV(Placeholders[K], Full[K]->getStart());
      return SE.getAddExpr(
          visit(AR->getStart()),
          SE.getMulExpr(visit(AR->getStepRecurrence(SE)), Counter));
    }
    return SCEVRewriteVisitor::visitAddRecExpr(AR);
  }

private:
  ArrayRef<const SCEV *> Truncated;
  ArrayRef<const SCEVAddRecExpr *> Full;
  ArrayRef<const SCEV *> Placeholders;
};
} // namespace

/// The degree of \p S as a polynomial in \p Vars, or 2 where it is not
/// one (a variable under a cast, a division, a min).
static unsigned degreeIn(const SCEV *S, ArrayRef<const SCEV *> Vars) {
  if (is_contained(Vars, S))
    return 1;
  if (!SCEVExprContains(S,
                        [&](const SCEV *L) { return is_contained(Vars, L); }))
    return 0;
  unsigned Degree = 0;
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : Add->operands())
      Degree = std::max(Degree, degreeIn(Op, Vars));
    return Degree;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    for (const SCEV *Op : Mul->operands())
      Degree += degreeIn(Op, Vars);
    return std::min(Degree, 2u);
  }
  return 2;
}

/// \p A and \p B are one expression of values computed alike (a loop nest
/// for full tiles and one for partial tiles each load the View's stride).
static bool sameTerms(const SCEV *A, const SCEV *B) {
  if (A == B)
    return true;
  if (A->getSCEVType() != B->getSCEVType() || A->getType() != B->getType())
    return false;
  if (auto *UA = dyn_cast<SCEVUnknown>(A))
    return ParallelLoopReads::sameComputation(UA->getValue(),
                                              cast<SCEVUnknown>(B)->getValue());
  if (isa<SCEVConstant, SCEVVScale, SCEVCouldNotCompute>(A))
    return false;
  auto OpsA = A->operands(), OpsB = B->operands();
  if (OpsA.size() != OpsB.size() ||
      (isa<SCEVAddRecExpr>(A) && cast<SCEVAddRecExpr>(A)->getLoop() !=
                                     cast<SCEVAddRecExpr>(B)->getLoop()))
    return false;
  for (auto [OA, OB] : zip(OpsA, OpsB))
    if (!sameTerms(OA, OB))
      return false;
  return true;
}

/// \p S as terms and a constant added to them.
static std::pair<const SCEV *, int64_t> splitConstant(const SCEV *S,
                                                      ScalarEvolution &SE) {
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return {SE.getZero(S->getType()), C->getAPInt().getSExtValue()};
  auto *Add = dyn_cast<SCEVAddExpr>(S);
  if (!Add || !isa<SCEVConstant>(Add->getOperand(0)))
    return {S, 0};
  SmallVector<const SCEV *, 4> Terms(drop_begin(Add->operands()));
  return {SE.getAddExpr(Terms),
          cast<SCEVConstant>(Add->getOperand(0))->getAPInt().getSExtValue()};
}

std::optional<ParallelLoopReads::TileRead>
ParallelLoopReads::tileRead(LoadInst &Load) {
  if (!Load.isSimple() || !SE.isSCEVable(Load.getPointerOperandType()))
    return std::nullopt;
  // The points of the tile loops around the load, outer and inner: marked
  // values that the load follows, in loops around it (the loop each
  // counts in comes from its recurrence).
  std::array<Instruction *, 2> Points = {nullptr, nullptr};
  int Tile = -1;
  for (Loop *L = LI.getLoopFor(Load.getParent()); L; L = L->getParentLoop())
    for (BasicBlock *BB : L->getBlocks()) {
      if (LI.getLoopFor(BB) != L)
        continue;
      for (Instruction &I : *BB) {
        KokkosTilePoint P = kokkosTilePointOf(I);
        if (P.Tile < 0 || Points[P.Loop] || !DT.dominates(&I, &Load) ||
            (Tile >= 0 && P.Tile != Tile))
          continue;
        Points[P.Loop] = &I;
        Tile = P.Tile;
      }
    }
  if (!Points[0] || !Points[1])
    return std::nullopt;
  // Each point counts in its own loop (where it is computed may be deeper),
  // the inner one in the outer one.
  auto LoopOf = [&](Instruction *Point) -> const Loop * {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Point));
    return AR ? AR->getLoop() : nullptr;
  };
  const Loop *Outer = LoopOf(Points[0]), *Inner = LoopOf(Points[1]);
  if (!Outer || !Inner || Inner->getParentLoop() != Outer ||
      !Inner->contains(Load.getParent()))
    return std::nullopt;
  // The tiles are the iterations of a worksharing loop around them.
  const Loop *Worksharing = worksharingLoopAround(Outer->getParentLoop());
  if (!Worksharing ||
      kokkosTileOf(*IterationNumbers.lookup(Worksharing).Counter) != Tile)
    return std::nullopt;
  auto Split = invariantBaseAndOffset(Load);
  if (!Split)
    return std::nullopt;
  const SCEVUnknown *Base = Split->first;
  const SCEV *Offset = Split->second;
  if (SE.getTypeSizeInBits(Offset->getType()) != 64)
    return std::nullopt;

  const SCEV *Truncated[2] = {nullptr, nullptr};
  const SCEVAddRecExpr *Full[2] = {nullptr, nullptr};
  const SCEV *Placeholders[2];
  unsigned IndexBits[2] = {0, 0};
  Type *Wide = Offset->getType();
  for (unsigned K : {0u, 1u}) {
    auto *Point = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Points[K]));
    if (!Point || !Point->isAffine() || !Point->getStepRecurrence(SE)->isOne())
      return std::nullopt;
    // A placeholder no address holds: the point's own value, which scalar
    // evolution knows as a recurrence.
    Placeholders[K] = SE.getUnknown(Points[K]);
    if (SE.getTypeSizeInBits(Point->getType()) != 64)
      return std::nullopt;
    const SCEV *Int = SE.getSignExtendExpr(
        SE.getTruncateExpr(Point, Type::getInt32Ty(Load.getContext())), Wide);
    if (SCEVExprContains(Offset, [&](const SCEV *S) { return S == Int; })) {
      Truncated[K] = Int;
      IndexBits[K] = 32;
    } else {
      Full[K] = Point;
    }
  }
  PointTerms Rewriter(SE, Truncated, Full, Placeholders);
  const SCEV *Linear = Rewriter.visit(Offset);
  if (degreeIn(Linear, Placeholders) > 1)
    return std::nullopt;
  auto At = [&](int64_t W0, int64_t W1) {
    ValueToSCEVMapTy Values;
    Values[Points[0]] = SE.getConstant(Offset->getType(), W0, true);
    Values[Points[1]] = SE.getConstant(Offset->getType(), W1, true);
    return SCEVParameterRewriter::rewrite(Linear, SE, Values);
  };
  const SCEV *Rest = At(0, 0);
  const SCEV *Coefficients[2] = {SE.getMinusSCEV(At(1, 0), Rest),
                                 SE.getMinusSCEV(At(0, 1), Rest)};
  // Whatever else the address adds is the same in every thread and every
  // tile: a point's own term carries all that varies.
  if (!isThreadInvariant(Rest) || !isThreadInvariant(Coefficients[0]) ||
      !isThreadInvariant(Coefficients[1]) ||
      SCEVExprContains(Rest, [&](const SCEV *S) {
        return S == Placeholders[0] || S == Placeholders[1];
      }))
    return std::nullopt;
  uint64_t Size =
      Load.getDataLayout().getTypeStoreSize(Load.getType()).getFixedValue();
  return TileRead{&Load,
                  Tile,
                  Base->getValue(),
                  Rest,
                  Points,
                  {Coefficients[0], Coefficients[1]},
                  {IndexBits[0], IndexBits[1]},
                  Size};
}

void ParallelLoopReads::classifyTileReads(
    ArrayRef<TileRead> Reads, ArrayRef<OtherRead> Others,
    function_ref<bool(const TileReadGroup &)> CheckPoints) {
  // Group the reads of one point's element: one tile, base and
  // coefficients, constant offsets apart.
  SmallVector<SmallVector<std::pair<const TileRead *, int64_t>, 4>, 4> Groups;
  for (const TileRead &R : Reads) {
    bool Placed = false;
    for (auto &G : Groups) {
      const TileRead &First = *G.front().first;
      auto [FirstTerms, FirstConstant] = splitConstant(First.Rest, SE);
      auto [Terms, Constant] = splitConstant(R.Rest, SE);
      if (First.Tile != R.Tile ||
          !sameTerms(First.Coefficients[0], R.Coefficients[0]) ||
          !sameTerms(First.Coefficients[1], R.Coefficients[1]) ||
          First.IndexBits[0] != R.IndexBits[0] ||
          First.IndexBits[1] != R.IndexBits[1] ||
          !sameComputation(First.Base, R.Base) || !sameTerms(FirstTerms, Terms))
        continue;
      G.push_back({&R, Constant - FirstConstant});
      Placed = true;
      break;
    }
    if (!Placed)
      Groups.push_back({{&R, 0}});
  }

  for (auto [N, G] : enumerate(Groups)) {
    const TileRead &First = *G.front().first;
    TileReadGroup D{
        {}, First.Coefficients, {First.IndexBits[0], First.IndexBits[1]},
        0,  INT64_MAX,          INT64_MIN};
    for (auto &[R, Apart] : G) {
      D.Low = std::min(D.Low, Apart);
      D.High = std::max(D.High, Apart + int64_t(R->Size));
      D.Members.push_back({R->Load, R->Points, R->Coefficients});
    }
    // The smaller constant coefficient steps within a row.
    auto *C0 = dyn_cast<SCEVConstant>(D.Coefficients[0]);
    auto *C1 = dyn_cast<SCEVConstant>(D.Coefficients[1]);
    if (C0 && (!C1 || C0->getAPInt().abs().ult(C1->getAPInt().abs())))
      D.Small = 0;
    else if (C1 && (!C0 || C1->getAPInt().abs().ult(C0->getAPInt().abs())))
      D.Small = 1;
    else
      continue;
    auto *Step = cast<SCEVConstant>(D.Coefficients[D.Small]);
    if (!Step->getAPInt().isStrictlyPositive() ||
        Step->getAPInt().slt(D.High - D.Low))
      continue;
    // Nothing else the body reads may be that memory.
    bool Overlaps = false;
    for (auto &[R, Apart] : G) {
      for (const OtherRead &O : Others)
        Overlaps = Overlaps || overlaps(*R->Load, O);
      for (auto [M, H] : enumerate(Groups))
        if (M != N)
          for (auto &[Other, OtherApart] : H)
            Overlaps = Overlaps ||
                       overlaps(*R->Load, {Other->Load,
                                           Other->Load->getPointerOperand()});
    }
    if (Overlaps || !CheckPoints(D))
      continue;
    for (const TileReadGroup::Member &M : D.Members) {
      Sharing[M.Load] = ReadSharing::Exclusive;
      TeamChecked.insert(M.Load);
    }
    FlushesAfterBarrier = true;
  }
}

} // namespace enzyme
