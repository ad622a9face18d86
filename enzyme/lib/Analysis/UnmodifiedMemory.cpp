//===- UnmodifiedMemory.cpp - Memory a function never writes --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/UnmodifiedMemory.h"
#include "Analysis/KnownFunctions.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

UnmodifiedMemory::UnmodifiedMemory(
    Function &F, AAResults &AA,
    function_ref<bool(const CallBase &)> OnlyWritesErrno)
    : AA(AA) {
  for (Instruction &I : instructions(F)) {
    if (!I.mayWriteToMemory())
      continue;
    // Allocating a block writes no existing memory.
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && (isFreshAllocationCall(*Call) || OnlyWritesErrno(*Call)))
      continue;
    Writers.push_back(&I);
  }
}

/// \p Ptr points into blocks allocated by this function call only (through
/// phis and selects, which alias analysis gives up on sooner).
static bool pointsIntoFreshBlocks(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return all_of(Objects, [](const Value *O) {
    if (isa<AllocaInst>(O))
      return true;
    auto *Call = dyn_cast<CallBase>(O);
    return Call && isFreshAllocationCall(*Call);
  });
}

/// What \p W may write: a freed block, or what alias analysis says.
static bool mayModify(AAResults &AA, Instruction *W, const Value *Object,
                      const MemoryLocation &Whole) {
  // A block allocated during the call is never the caller's memory.
  if (isa<Argument>(Object) || isa<GlobalVariable>(Object)) {
    const Value *Written = nullptr;
    if (auto *Store = dyn_cast<StoreInst>(W))
      Written = Store->getPointerOperand();
    else if (auto *Mem = dyn_cast<MemIntrinsic>(W))
      Written = Mem->getDest();
    if (Written && pointsIntoFreshBlocks(Written))
      return false;
  }
  auto *Call = dyn_cast<CallBase>(W);
  if (Call && isDeallocationCall(*Call) && Call->arg_size() > 0) {
    Value *Freed = Call->getArgOperand(0);
    return !AA.isNoAlias(MemoryLocation::getBeforeOrAfter(Freed), Whole);
  }
  return isModSet(AA.getModRefInfo(W, Whole));
}

bool UnmodifiedMemory::isUnmodified(const LoadInst &Load) {
  if (!Load.isSimple())
    return false;
  const Value *Object = getUnderlyingObject(Load.getPointerOperand(), 0);
  // Memory the function allocates itself may be freed before the reverse
  // pass runs; argument and global memory outlives the call.
  if (auto *GV = dyn_cast<GlobalVariable>(Object)) {
    if (GV->isThreadLocal())
      return false;
  } else if (!isa<Argument>(Object) && !isa<LoadInst>(Object)) {
    return false;
  }
  auto [It, Inserted] = UnmodifiedObjects.try_emplace(Object, true);
  if (!Inserted)
    return It->second;
  MemoryLocation Whole = MemoryLocation::getBeforeOrAfter(Object);
  for (Instruction *W : Writers)
    if (mayModify(AA, W, Object, Whole))
      return It->second = false;
  return true;
}

} // namespace enzyme
