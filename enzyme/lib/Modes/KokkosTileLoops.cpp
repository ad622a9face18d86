//===- KokkosTileLoops.cpp - The points of a Kokkos MDRange tile ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/KokkosTileLoops.h"
#include "Core/KokkosRuntime.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace enzyme {

/// The counter of \p L that starts at 0 and steps by 1, or null.
static PHINode *countingPhi(const Loop &L) {
  // (Not in simplified form: the block entering the loop may branch
  // elsewhere too.)
  BasicBlock *Preheader = L.getLoopPredecessor(), *Latch = L.getLoopLatch();
  if (!Preheader || !Latch)
    return nullptr;
  for (PHINode &Phi : L.getHeader()->phis())
    if (Phi.getType()->isIntegerTy() && Phi.getNumIncomingValues() == 2 &&
        match(Phi.getIncomingValueForBlock(Preheader), m_Zero()) &&
        match(Phi.getIncomingValueForBlock(Latch),
              m_c_Add(m_Specific(&Phi), m_One())))
      return &Phi;
  return nullptr;
}

/// Marks the counters of the tile loops of \p Tile (a copy of a tile
/// function) as those of inlined call \p Id; false if its loops are not
/// nests of two counting loops, one in the other.
static bool markCounters(Function &Tile, unsigned Id) {
  DominatorTree DT(Tile);
  LoopInfo LI(DT);
  SmallVector<std::pair<PHINode *, unsigned>, 4> Marks;
  for (Loop *Outer : LI) {
    // A full tile and a partial one are two such nests.
    if (Outer->getSubLoops().size() != 1)
      return false;
    PHINode *Counters[] = {countingPhi(*Outer),
                           countingPhi(*Outer->getSubLoops().front())};
    if (!Counters[0] || !Counters[1])
      return false;
    Marks.push_back({Counters[0], 0});
    Marks.push_back({Counters[1], 1});
  }
  for (auto [Counter, Level] : Marks)
    markKokkosTileCounter(*Counter, Id, Level);
  return !Marks.empty();
}

/// The calls of \p F to tile functions with a definition (and, in a tile
/// function's copy, to its loops over the points).
static SmallVector<CallBase *, 4> tileCalls(Function &F,
                                            bool AndLoops = false) {
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && Callee != &F &&
          (isKokkosRank2TileFunction(*Callee) ||
           (AndLoops && isKokkosRank2TileLoop(*Callee))))
        Calls.push_back(Call);
  return Calls;
}

void inlineKokkosTiles(Function &F) {
  unsigned NextId = 0;
  for (CallBase *Call : tileCalls(F)) {
    auto *Tile = Call->arg_size() >= 2
                     ? dyn_cast<Instruction>(Call->getArgOperand(1))
                     : nullptr;
    if (!Tile || !Tile->getType()->isIntegerTy())
      continue;
    // Marked in a copy: the program's own function keeps no metadata. A
    // tile function may leave its loops to its `operator_impl` or to
    // `Tile_Loop_Type::apply`.
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(Call->getCalledFunction(), VMap);
    for (unsigned Level = 0; Level < 2; ++Level)
      for (CallBase *Impl : tileCalls(*Copy, /*AndLoops=*/true)) {
        InlineFunctionInfo Info;
        InlineFunction(*Impl, Info);
      }
    // Calls with one tile number share its mark.
    int Id = kokkosTileOf(*Tile);
    if (Id < 0)
      Id = NextId++;
    if (markCounters(*Copy, Id))
      markKokkosTile(*Tile, Id);
    Call->setCalledFunction(Copy);
    InlineFunctionInfo Info;
    InlineFunction(*Call, Info);
    Copy->eraseFromParent();
  }
}

void markKokkosTilePoints(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Instruction &I : instructions(F)) {
    auto *Counter = dyn_cast<PHINode>(&I);
    KokkosTilePoint Mark =
        Counter ? kokkosTileCounterOf(*Counter) : KokkosTilePoint();
    if (Mark.Tile < 0)
      continue;
    // The nest as it was marked: the inner loop alone in the outer one,
    // each counting from the marked counter.
    Loop *L = LI.getLoopFor(Counter->getParent());
    Loop *Outer = Mark.Loop == 0 ? L : L ? L->getParentLoop() : nullptr;
    if (!L || L->getHeader() != Counter->getParent() || !Outer ||
        Outer->getSubLoops().size() != 1)
      continue;
    // Its points: the counter plus an offset computed before the nest.
    for (User *U : Counter->users()) {
      Value *Offset = nullptr;
      auto *Sum = dyn_cast<Instruction>(U);
      if (!Sum || is_contained(Counter->incoming_values(), Sum) ||
          !match(Sum, m_c_Add(m_Specific(Counter), m_Value(Offset))))
        continue;
      auto *OffsetI = dyn_cast<Instruction>(Offset);
      if (!OffsetI || !Outer->contains(OffsetI))
        markKokkosTilePoint(*Sum, Mark.Tile, Mark.Loop);
    }
  }
}

} // namespace enzyme
