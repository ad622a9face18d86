//===- ReversibleLoops.h - Loops the reverse pass runs backwards -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the loops whose reverse the engine can run without recording each
/// iteration on the tape: loops with a preheader, one latch and dedicated
/// exit blocks. For such a loop,
///  - a value computed before the loop and used inside it is pushed once,
///    when the loop exits, instead of once per iteration;
///  - a *counter* (an integer `%i = phi [Start, preheader], [%i + C,
///    latch]`, or a pointer `%p = phi [Start, preheader], [gep %p, C,
///    latch]` that walks memory by C bytes) is pushed once at the exit, then
///    stepped back (`%i - C`) each time the reverse pass goes from the
///    header back to the latch; a
///    counter that cannot wrap also tells the first iteration apart
///    (`%i == Start`), so the header needs no recorded predecessor.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_REVERSIBLELOOPS_H
#define ENZYME_ANALYSIS_REVERSIBLELOOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class BasicBlock;
class ConstantInt;
class Loop;
class LoopInfo;
class PHINode;
class Value;
} // namespace llvm

namespace enzyme {

struct LoopCounter {
  llvm::PHINode *Phi = nullptr;
  llvm::Value *Start = nullptr;
  /// Added each iteration (bytes, for a pointer).
  llvm::ConstantInt *Step = nullptr;
  /// The counter never returns to Start (its increment cannot wrap).
  bool NoWrap = false;
};

struct ReversibleLoop {
  llvm::Loop *L = nullptr;
  llvm::BasicBlock *Preheader = nullptr;
  llvm::BasicBlock *Latch = nullptr;
  llvm::SmallVector<llvm::BasicBlock *, 2> ExitBlocks;
  llvm::SmallVector<LoopCounter, 2> Counters;

  /// A counter that identifies the first iteration, if any.
  const LoopCounter *firstIterationCounter() const;
};

class ReversibleLoops {
public:
  explicit ReversibleLoops(llvm::LoopInfo &LI);

  /// The reversible loop \p L, or null.
  const ReversibleLoop *get(const llvm::Loop *L) const;
  /// The reversible loop whose header \p BB is, or null.
  const ReversibleLoop *headedBy(const llvm::BasicBlock *BB) const;
  /// The counter \p Phi is, and its loop; null if it is none.
  const LoopCounter *counter(const llvm::PHINode *Phi,
                             const ReversibleLoop **Loop = nullptr) const;
  /// The outermost reversible loop that contains \p Use but not \p Def: the
  /// loop whose exits can carry a value defined in \p Def to uses in
  /// \p Use once per loop execution. Null if there is none.
  const ReversibleLoop *
  outermostEnteredAfter(const llvm::BasicBlock *Def,
                        const llvm::BasicBlock *Use) const;
  /// Every reversible loop, outer loops before inner ones.
  llvm::ArrayRef<ReversibleLoop> loops() const { return Loops; }

private:
  llvm::LoopInfo &LI;
  llvm::SmallVector<ReversibleLoop, 8> Loops;
  llvm::DenseMap<const llvm::Loop *, unsigned> Index;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_REVERSIBLELOOPS_H
