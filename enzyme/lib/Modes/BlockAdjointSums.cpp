//===- BlockAdjointSums.cpp - A block's sums before global atomics --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/BlockAdjointSums.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

static cl::opt<bool> BlockAdjointSums(
    "enzyme-gpu-block-sums",
    cl::desc("Sum a block's warp sums of one address in shared memory before "
             "one global atomic addition, between two __syncthreads"),
    cl::init(true));

namespace enzyme {

static constexpr const char *WarpSumMark = "enzyme.warp.sum";

void markWarpSumAddition(AtomicRMWInst &Add) {
  Add.setMetadata(WarpSumMark, MDNode::get(Add.getContext(), {}));
}

namespace {
/// The function's barriers and what is needed to place an addition
/// between two of them.
class BarrierPlaces {
public:
  explicit BarrierPlaces(Function &F) : DT(F), PDT(F), LI(DT) {
    for (Instruction &I : instructions(F))
      if (isBlockBarrier(I) && !LI.getLoopFor(I.getParent()))
        Barriers.push_back(&I);
  }

  /// A barrier every path to \p I passes first, outside loops.
  Instruction *before(Instruction &I) const {
    for (Instruction *Barrier : Barriers)
      if (DT.dominates(Barrier, &I))
        return Barrier;
    return nullptr;
  }

  /// A barrier every path from \p I passes later, outside loops.
  Instruction *after(Instruction &I) const {
    for (Instruction *Barrier : Barriers) {
      BasicBlock *At = Barrier->getParent(), *From = I.getParent();
      if (At == From ? I.comesBefore(Barrier) : PDT.dominates(At, From))
        return Barrier;
    }
    return nullptr;
  }

  bool inLoop(const Instruction &I) const {
    return LI.getLoopFor(I.getParent());
  }

private:
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  SmallVector<Instruction *, 4> Barriers;
};
} // namespace

/// Splits before \p At and runs \p Then there when \p Cond holds.
static void emitIf(Instruction *At, Value *Cond,
                   function_ref<void(IRBuilder<> &)> Then) {
  Instruction *Term = SplitBlockAndInsertIfThen(Cond, At->getIterator(), false);
  IRBuilder<> B(Term);
  Then(B);
}

static void sumPerBlock(AtomicRMWInst &Add, Instruction &After,
                        IRBuilder<> &Entry) {
  Function &F = *Add.getFunction();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *Ty = Add.getValOperand()->getType();
  Type *I64 = Type::getInt64Ty(Ctx);
  auto *SlotTy = StructType::get(I64, Ty);
  auto *Slot = new GlobalVariable(
      M, SlotTy, false, GlobalValue::InternalLinkage, PoisonValue::get(SlotTy),
      F.getName() + ".block.sum", nullptr, GlobalValue::NotThreadLocal, 3);
  Slot->setAlignment(Align(8));
  // Constant expressions: the slot's fields are used from the entry on.
  IRBuilder<> Fold(Ctx);
  Value *AddressSlot = Fold.CreateStructGEP(SlotTy, Slot, 0);
  Value *SumSlot = Fold.CreateStructGEP(SlotTy, Slot, 1);
  Align SumAlign = Add.getAlign();

  // Every thread empties the slot at the entry.
  Entry.CreateStore(Entry.getInt64(0), AddressSlot);
  Entry.CreateAlignedStore(Constant::getNullValue(Ty), SumSlot, SumAlign);

  // The warp claims the slot, or finds it claimed for its address.
  IRBuilder<> B(&Add);
  Value *Key = B.CreatePtrToInt(Add.getPointerOperand(), I64);
  Value *Claim = B.CreateAtomicCmpXchg(AddressSlot, B.getInt64(0), Key,
                                       MaybeAlign(8), AtomicOrdering::Monotonic,
                                       AtomicOrdering::Monotonic);
  Value *Held = B.CreateExtractValue(Claim, 0);
  Value *Ours = B.CreateOr(B.CreateICmpEQ(Held, B.getInt64(0)),
                           B.CreateICmpEQ(Held, Key), "block.slot.ours");
  Instruction *InShared = nullptr, *InGlobal = nullptr;
  SplitBlockAndInsertIfThenElse(Ours, Add.getIterator(), &InShared, &InGlobal);
  IRBuilder<> Shared(InShared);
  Shared.CreateAtomicRMW(AtomicRMWInst::FAdd, SumSlot, Add.getValOperand(),
                         SumAlign, AtomicOrdering::Monotonic);
  Add.moveBefore(InGlobal);

  // After the barrier, the first active lane of each warp tries to take
  // the slot's address; the one that does adds the sum there.
  IRBuilder<> Flush(After.getNextNode());
  Value *Active = Flush.CreateIntrinsic(Intrinsic::nvvm_activemask, {}, {});
  Value *Lane =
      Flush.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
  Value *Leads = Flush.CreateICmpEQ(
      Lane,
      Flush.CreateBinaryIntrinsic(Intrinsic::cttz, Active, Flush.getTrue()),
      "block.sum.flusher");
  emitIf(&*Flush.GetInsertPoint(), Leads, [&](IRBuilder<> &T) {
    Value *Address =
        T.CreateAtomicRMW(AtomicRMWInst::Xchg, AddressSlot, T.getInt64(0),
                          MaybeAlign(8), AtomicOrdering::Monotonic);
    emitIf(&*T.GetInsertPoint(), T.CreateICmpNE(Address, T.getInt64(0)),
           [&](IRBuilder<> &U) {
             Value *Sum = U.CreateAtomicRMW(
                 AtomicRMWInst::Xchg, SumSlot, Constant::getNullValue(Ty),
                 SumAlign, AtomicOrdering::Monotonic);
             Value *Target = U.CreateIntToPtr(Address, PointerType::get(Ctx, 1),
                                              "block.sum.target");
             U.CreateAtomicRMW(AtomicRMWInst::FAdd, Target, Sum, SumAlign,
                               AtomicOrdering::Monotonic);
           });
  });
}

bool sumWarpAdditionsPerBlock(Function &F) {
  if (!BlockAdjointSums || F.isDeclaration() || !isCudaKernel(F))
    return false;
  SmallVector<AtomicRMWInst *, 4> Marked;
  for (Instruction &I : instructions(F))
    if (auto *Add = dyn_cast<AtomicRMWInst>(&I);
        Add && Add->getMetadata(WarpSumMark))
      Marked.push_back(Add);
  if (Marked.empty())
    return false;
  // Where each goes, decided before any block is split.
  SmallVector<std::pair<AtomicRMWInst *, Instruction *>, 4> Plan;
  {
    BarrierPlaces Places(F);
    for (AtomicRMWInst *Add : Marked) {
      Add->setMetadata(WarpSumMark, nullptr);
      Instruction *Later = Places.after(*Add);
      if (!Add->use_empty() || Places.inLoop(*Add) || !Places.before(*Add) ||
          !Later)
        continue;
      Plan.push_back({Add, Later});
    }
  }
  if (Plan.empty())
    return false;
  // The slots are emptied at the kernel's entry (after its allocas, which
  // stay static), where every thread of the block is, and a barrier there
  // orders that before anything else the block does, even in threads that
  // return before the barriers around the additions.
  BasicBlock::iterator Start = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*Start))
    ++Start;
  IRBuilder<> Entry(&*Start);
  Instruction *Emptied =
      Entry.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
  Entry.SetInsertPoint(Emptied);
  for (auto [Add, Later] : Plan)
    sumPerBlock(*Add, *Later, Entry);
  return true;
}

} // namespace enzyme
