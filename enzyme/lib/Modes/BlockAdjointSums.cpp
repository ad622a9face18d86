//===- BlockAdjointSums.cpp - A block's sums before global atomics --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/BlockAdjointSums.h"

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

/// `__syncthreads` and the block-wide barriers that vote.
static bool isBlockBarrier(const Instruction &I) {
  const auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return false;
  switch (Call->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier0:
  case Intrinsic::nvvm_barrier0_popc:
  case Intrinsic::nvvm_barrier0_and:
  case Intrinsic::nvvm_barrier0_or:
    return true;
  default:
    return false;
  }
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

/// Whether this thread is (0, 0, 0) of its block.
static Value *isFirstThread(IRBuilder<> &B) {
  Value *Any = nullptr;
  for (Intrinsic::ID ID : {Intrinsic::nvvm_read_ptx_sreg_tid_x,
                           Intrinsic::nvvm_read_ptx_sreg_tid_y,
                           Intrinsic::nvvm_read_ptx_sreg_tid_z}) {
    Value *Index = B.CreateIntrinsic(ID, {}, {});
    Any = Any ? B.CreateOr(Any, Index) : Index;
  }
  return B.CreateICmpEQ(Any, B.getInt32(0), "first.thread");
}

/// Splits before \p At and runs \p Then there when \p Cond holds.
static void emitIf(Instruction *At, Value *Cond,
                   function_ref<void(IRBuilder<> &)> Then) {
  Instruction *Term = SplitBlockAndInsertIfThen(Cond, At->getIterator(), false);
  IRBuilder<> B(Term);
  Then(B);
}

static void sumPerBlock(AtomicRMWInst &Add, Instruction &After) {
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
  IRBuilder<> Probe(&Add);
  Value *AddressSlot = Probe.CreateStructGEP(SlotTy, Slot, 0);
  Value *SumSlot = Probe.CreateStructGEP(SlotTy, Slot, 1);

  // The entry empties the slot (after its allocas, which stay static).
  BasicBlock::iterator Start = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*Start))
    ++Start;
  IRBuilder<> Entry(&*Start);
  Value *First = isFirstThread(Entry);
  emitIf(&*Entry.GetInsertPoint(), First, [&](IRBuilder<> &B) {
    B.CreateStore(B.getInt64(0), AddressSlot);
    B.CreateStore(Constant::getNullValue(Ty), SumSlot);
  });

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
                         Add.getAlign(), AtomicOrdering::Monotonic);
  Add.moveBefore(InGlobal);
  Add.setMetadata(WarpSumMark, nullptr);

  // After the barrier, the block's sum goes where the slot says.
  IRBuilder<> Flush(After.getNextNode());
  Value *Flusher = isFirstThread(Flush);
  emitIf(&*Flush.GetInsertPoint(), Flusher, [&](IRBuilder<> &T) {
    Value *Address = T.CreateLoad(I64, AddressSlot);
    emitIf(&*T.GetInsertPoint(), T.CreateICmpNE(Address, T.getInt64(0)),
           [&](IRBuilder<> &U) {
             Value *Target = U.CreateIntToPtr(Address, PointerType::get(Ctx, 1),
                                              "block.sum.target");
             U.CreateAtomicRMW(AtomicRMWInst::FAdd, Target,
                               U.CreateLoad(Ty, SumSlot), Add.getAlign(),
                               AtomicOrdering::Monotonic);
           });
  });
}

bool sumWarpAdditionsPerBlock(Function &F) {
  if (!BlockAdjointSums || F.isDeclaration())
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
  for (auto [Add, Later] : Plan)
    sumPerBlock(*Add, *Later);
  return !Plan.empty();
}

} // namespace enzyme
