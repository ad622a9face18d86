//===- UnmodifiedMemory.cpp - Memory a function never writes --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/UnmodifiedMemory.h"
#include "Analysis/KnownFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
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
  // Through phis and selects too (a pointer that walks a table): every
  // object the address may point into must be unmodified.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Load.getPointerOperand(), Objects);
  return !Objects.empty() &&
         all_of(Objects, [&](const Value *O) { return isUnmodified(O); });
}

bool UnmodifiedMemory::isUnmodified(const Value *Object) {
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

const UnmodifiedMemory::LocalBlock &
UnmodifiedMemory::localBlock(CallBase &Allocation) {
  auto [It, Inserted] = LocalBlocks.try_emplace(&Allocation);
  LocalBlock &Block = It->second;
  if (!Inserted)
    return Block;
  // Every use of an address derived from the block: reading is fine, and
  // so are writing into it and freeing it; anything else lets it escape.
  SmallVector<const Value *, 8> Worklist{&Allocation};
  SmallPtrSet<const Value *, 8> Seen{&Allocation};
  while (!Worklist.empty() && !Block.Escapes) {
    const Value *Ptr = Worklist.pop_back_val();
    for (const Use &U : Ptr->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst>(User) || isa<BitCastInst>(User) ||
          isa<PHINode>(User) || isa<SelectInst>(User)) {
        if (Seen.insert(User).second)
          Worklist.push_back(User);
      } else if (isa<LoadInst>(User) || isa<ICmpInst>(User)) {
        continue;
      } else if (auto *Store = dyn_cast<StoreInst>(User)) {
        if (U.getOperandNo() != StoreInst::getPointerOperandIndex())
          Block.Escapes = true;
        else
          Block.Writers.push_back(Store);
      } else if (auto *Mem = dyn_cast<MemIntrinsic>(User)) {
        if (&U == &Mem->getRawDestUse())
          Block.Writers.push_back(Mem);
        else if (!isa<MemTransferInst>(Mem))
          Block.Escapes = true;
      } else if (auto *Call = dyn_cast<CallInst>(User);
                 Call && isDeallocationCall(*Call) && Call->arg_size() == 1 &&
                 Call->getArgOperand(0)->stripPointerCasts() == &Allocation) {
        Block.Frees.push_back(Call);
      } else {
        Block.Escapes = true;
      }
      if (Block.Escapes)
        break;
    }
  }
  return Block;
}

CallBase *UnmodifiedMemory::allocationUnmodifiedAfter(const LoadInst &Load,
                                                      const DominatorTree &DT,
                                                      const LoopInfo &LI) {
  if (!Load.isSimple())
    return nullptr;
  auto *Allocation = dyn_cast<CallBase>(
      const_cast<Value *>(getUnderlyingObject(Load.getPointerOperand(), 0)));
  if (!Allocation || !isFreshAllocationCall(*Allocation) ||
      isReallocCall(*Allocation) || LI.getLoopFor(Allocation->getParent()))
    return nullptr;
  const LocalBlock &Block = localBlock(*Allocation);
  if (Block.Escapes)
    return nullptr;
  // One kind of free, so the reverse pass can call it on every path.
  for (CallInst *Free : Block.Frees)
    if (Free->getCalledOperand() != Block.Frees[0]->getCalledOperand())
      return nullptr;
  for (Instruction *W : Block.Writers)
    if (isPotentiallyReachable(&Load, W, nullptr, &DT, &LI))
      return nullptr;
  return Allocation;
}

ArrayRef<CallInst *> UnmodifiedMemory::frees(CallBase &Allocation) const {
  auto It = LocalBlocks.find(&Allocation);
  if (It == LocalBlocks.end())
    return {};
  return It->second.Frees;
}

} // namespace enzyme
