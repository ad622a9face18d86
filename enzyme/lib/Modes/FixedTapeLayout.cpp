//===- FixedTapeLayout.cpp - Tapes with a layout fixed at compile time ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Split mode can store the tape inline, in a few bytes of the caller's
/// memory (`enzyme_allocated, SIZE`): a GPU kernel keeps one float per
/// thread. Such a tape has no header and cannot grow, so every value has an
/// offset known at compile time: blocks are laid out in reverse post-order,
/// each starting after the furthest end of its predecessors, with the
/// regions of the callees it calls first and its own batch last. The paths
/// through a function share the layout, leaving unused holes on paths that
/// skip a block. A block that may run more than once per call and pushes
/// something (a loop, recursion) has no such layout: that is an error that
/// says to use the pointer form.
///
//===----------------------------------------------------------------------===//

#include "Modes/FunctionDifferentiator.h"

#include "Core/Diagnostics.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"

using namespace llvm;

namespace enzyme {

SmallVector<Type *, 8>
FunctionDifferentiator::batchTypes(BasicBlock &BB) const {
  SmallVector<Type *, 8> Types;
  for (NeededValue V : Batches.lookup(&BB))
    Types.push_back(neededType(V));
  for (NeededValue V : loopExitPushes(&BB))
    Types.push_back(neededType(V));
  if (&BB == ExitBlock)
    for (NeededValue V : ExitBatch)
      Types.push_back(neededType(V));
  return Types;
}

Value *FunctionDifferentiator::calleeTape(CallBase &Call, Value *Tape,
                                          IRBuilder<> &B) {
  if (!Sig.FixedTape)
    return Tape;
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Tape,
                                      FixedCalleeOffsets.lookup(&Call));
}

bool FunctionDifferentiator::planFixedTape() {
  const TapeBuilder &Tape = Gen.tape();
  DenseMap<const BasicBlock *, uint64_t> Ends;
  uint64_t Size = 0;
  ReversePostOrderTraversal<Function *> RPO(&Prep);
  for (BasicBlock *BB : RPO) {
    uint64_t Offset = 0;
    for (BasicBlock *Pred : predecessors(BB))
      Offset = std::max(Offset, Ends.lookup(Pred));
    bool Repeats = LI.getLoopFor(BB) != nullptr;
    for (Instruction &I : *BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || classifyCall(*Call) != CallKind::Differentiated)
        continue;
      ReverseSignature CalleeSig;
      std::optional<uint64_t> Bytes;
      if (!calleePair(*Call, CalleeSig, &Bytes)) {
        Failure->locateAt(*Call);
        return false;
      }
      if (!Bytes)
        return fail(Call, "an inline tape ('enzyme_allocated') has a size "
                          "fixed at compile time, but this recursive call "
                          "needs a tape of unbounded size; leave the marker "
                          "out to get the tape as a pointer");
      if (Repeats && *Bytes)
        return fail(Call, "an inline tape ('enzyme_allocated') has a size "
                          "fixed at compile time, but this call in a loop "
                          "records values on every iteration; leave the "
                          "marker out to get the tape as a pointer");
      FixedCalleeOffsets[Call] = Offset;
      Offset += *Bytes;
    }
    uint64_t BatchBytes = Tape.packedSize(batchTypes(*BB));
    if (Repeats && BatchBytes)
      return fail(BB->getTerminator(),
                  "an inline tape ('enzyme_allocated') has a size fixed at "
                  "compile time, but this loop records values on every "
                  "iteration; leave the marker out to get the tape as a "
                  "pointer");
    FixedBatchOffsets[BB] = Offset;
    Ends[BB] = Offset + BatchBytes;
    Size = std::max(Size, Ends[BB]);
  }
  Gen.FixedTapeSizes[Sig] = Size;
  return true;
}

} // namespace enzyme
