//===- SharedAdjoints.cpp - Adjoints of memory other threads read ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/SharedAdjoints.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/GpuTarget.h"
#include "Core/RuntimeLibrary.h"
#include "Modes/WarpShuffles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace enzyme {

bool readIsShared(const Value *PrimalPtr, bool ThreadsShareMemory) {
  if (!ThreadsShareMemory)
    return false;
  // Through selects and phis too: every possible object must be the
  // thread's own.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(PrimalPtr, Objects);
  return Objects.empty() ||
         !all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

/// The additions of one floating-point scalar or vector.
static void atomicAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                      Align Alignment) {
  Module &M = *B.GetInsertBlock()->getModule();
  const DataLayout &DL = M.getDataLayout();
  if (Ty->isFloatingPointTy()) {
    // Below its natural alignment, LLVM would call libatomic, which
    // programs do not link: the run-time adds (MisalignedAtomics.c).
    if (Alignment.value() < DL.getTypeStoreSize(Ty) &&
        (Ty->isDoubleTy() || Ty->isFloatTy()) && canLinkRuntime(M)) {
      B.CreateCall(getRuntimeFunction(M, Ty->isDoubleTy()
                                             ? "__enzyme_rt_atomic_fadd_f64"
                                             : "__enzyme_rt_atomic_fadd_f32"),
                   {Ptr, D});
      return;
    }
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, Ptr, D, Alignment,
                      AtomicOrdering::Monotonic);
    return;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Type *Elem = VT->getElementType();
    uint64_t Size = DL.getTypeStoreSize(Elem);
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      atomicAdd(B, Elem, B.CreateConstInBoundsGEP1_64(Elem, Ptr, I),
                B.CreateExtractElement(D, I),
                commonAlignment(Alignment, I * Size));
    return;
  }
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      atomicAdd(B, ST->getElementType(I), B.CreateStructGEP(ST, Ptr, I),
                B.CreateExtractValue(D, I),
                commonAlignment(Alignment, Layout->getElementOffset(I)));
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    Type *Elem = AT->getElementType();
    uint64_t Size = DL.getTypeAllocSize(Elem);
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      atomicAdd(B, Elem, B.CreateConstInBoundsGEP2_64(AT, Ptr, 0, I),
                B.CreateExtractValue(D, I),
                commonAlignment(Alignment, I * Size));
  }
  // Integers and pointers carry no adjoint.
}

Value *addAdjoints(IRBuilder<> &B, Value *A, Value *D) {
  Type *Ty = A->getType();
  if (Ty->isFPOrFPVectorTy())
    return B.CreateFAdd(A, D);
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    Value *R = A;
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (isDifferentiableType(ST->getElementType(I)))
        R = B.CreateInsertValue(R,
                                addAdjoints(B, B.CreateExtractValue(A, I),
                                            B.CreateExtractValue(D, I)),
                                I);
    return R;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    Value *R = A;
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      R = B.CreateInsertValue(R,
                              addAdjoints(B, B.CreateExtractValue(A, I),
                                          B.CreateExtractValue(D, I)),
                              I);
    return R;
  }
  return A;
}

static void plainAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                     MaybeAlign Alignment) {
  Value *Old = B.CreateAlignedLoad(Ty, Ptr, Alignment);
  B.CreateAlignedStore(addAdjoints(B, Old, D), Ptr, Alignment);
}

/// Emits `if (Cond) Then() else Else()` at \p B, which continues after it.
static void ifThenElse(IRBuilder<> &B, Value *Cond, function_ref<void()> Then,
                       function_ref<void()> Else) {
  BasicBlock *Cur = B.GetInsertBlock();
  bool AtEnd = B.GetInsertPoint() == Cur->end();
  Instruction *SplitBefore =
      AtEnd ? B.CreateUnreachable() : &*B.GetInsertPoint();
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(Cond, SplitBefore->getIterator(), &ThenTerm,
                                &ElseTerm);
  B.SetInsertPoint(ThenTerm);
  Then();
  B.SetInsertPoint(ElseTerm);
  Else();
  BasicBlock *Tail = SplitBefore->getParent();
  if (AtEnd) {
    SplitBefore->eraseFromParent();
    B.SetInsertPoint(Tail);
  } else {
    B.SetInsertPoint(SplitBefore);
  }
}

static cl::opt<bool> WarpAggregatedAtomics(
    "enzyme-warp-aggregated-atomics", cl::init(true), cl::Hidden,
    cl::desc("Let a warp whose lanes add adjoints into one address sum them "
             "first (CUDA device code); enzyme-clang turns it off under CUDA "
             "emulation, whose __activemask does not see divergence"));

/// The SM version of \p F's target ("sm_75" is 75), or 0.
static unsigned smVersion(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned Version = 0;
  if (!CPU.consume_front("sm_") ||
      CPU.take_while(isDigit).getAsInteger(10, Version))
    return 0;
  return Version;
}

/// The atomic addition of a scalar by a full warp whose lanes add into
/// several addresses (each thread's row of a table shared by all): the lanes
/// of each address (its peers) sum their adjoints in a tree of shuffles and
/// the lowest of them adds. The tree takes as many rounds as the largest
/// group needs (none when every address is a lane's own); the loop's
/// condition is a vote, so the warp runs it together.
static void peerAggregatedAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                              Align A) {
  Function &F = *B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I32 = B.getInt32Ty();
  Value *All = B.getInt32(-1);
  Value *Peers = B.CreateIntrinsic(Intrinsic::nvvm_match_any_sync_i64, {},
                                   {All, B.CreatePtrToInt(Ptr, B.getInt64Ty())},
                                   nullptr, "peers");
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {},
                                  nullptr, "lane");
  // Masks of the lanes below this one, and of those above it (64-bit: the
  // shifts reach 32).
  Value *Lane64 = B.CreateZExt(Lane, B.getInt64Ty());
  Value *Below = B.CreateTrunc(
      B.CreateSub(B.CreateShl(B.getInt64(1), Lane64), B.getInt64(1)), I32);
  Value *UpToSelf = B.CreateTrunc(
      B.CreateSub(B.CreateShl(B.getInt64(2), Lane64), B.getInt64(1)), I32);
  Value *Rank = B.CreateUnaryIntrinsic(
      Intrinsic::ctpop, B.CreateAnd(Peers, Below), nullptr, "rank");
  Value *Higher = B.CreateAnd(Peers, B.CreateNot(UpToSelf), "higher.peers");
  Value *First = B.CreateBinaryIntrinsic(Intrinsic::cttz, Peers, B.getFalse(),
                                         nullptr, "first.peer");

  BasicBlock *Entry = B.GetInsertBlock();
  bool AtEnd = B.GetInsertPoint() == Entry->end();
  Instruction *SplitBefore =
      AtEnd ? B.CreateUnreachable() : &*B.GetInsertPoint();
  BasicBlock *Next = SplitBlock(Entry, SplitBefore);
  Entry->getTerminator()->eraseFromParent();
  auto *Header = BasicBlock::Create(Ctx, "peers.round", &F, Next);
  auto *Body = BasicBlock::Create(Ctx, "peers.add", &F, Next);
  auto *Exit = BasicBlock::Create(Ctx, "peers.done", &F, Next);
  B.SetInsertPoint(Entry);
  B.CreateBr(Header);

  B.SetInsertPoint(Header);
  PHINode *Sum = B.CreatePHI(Ty, 2, "peers.sum");
  PHINode *Left = B.CreatePHI(I32, 2, "peers.left");
  PHINode *Round = B.CreatePHI(I32, 2, "peers.rank");
  Sum->addIncoming(D, Entry);
  Left->addIncoming(Higher, Entry);
  Round->addIncoming(Rank, Entry);
  Value *HasLeft = B.CreateICmpNE(Left, B.getInt32(0));
  Value *AnyLeft =
      B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {}, {All, HasLeft});
  B.CreateCondBr(AnyLeft, Body, Exit);

  B.SetInsertPoint(Body);
  // Every lane shuffles (a shuffle needs the whole warp); a lane with a peer
  // left adds the sum of the nearest one above it.
  Value *From = B.CreateSelect(
      HasLeft, B.CreateBinaryIntrinsic(Intrinsic::cttz, Left, B.getTrue()),
      Lane);
  Value *Theirs =
      emitWarpShuffle(B, ShuffleMode::Index, All, Sum, From, B.getInt32(31));
  Value *Added = B.CreateSelect(HasLeft, B.CreateFAdd(Sum, Theirs), Sum);
  // Lanes of odd rank gave their sum away this round: their peers forget
  // them.
  Value *Stays =
      B.CreateICmpEQ(B.CreateAnd(Round, B.getInt32(1)), B.getInt32(0));
  Value *Staying =
      B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {}, {All, Stays});
  Sum->addIncoming(Added, Body);
  Left->addIncoming(B.CreateAnd(Left, Staying), Body);
  Round->addIncoming(B.CreateLShr(Round, B.getInt32(1)), Body);
  B.CreateBr(Header);

  B.SetInsertPoint(Exit);
  ifThenElse(
      B, B.CreateICmpEQ(Lane, First), [&] { atomicAdd(B, Ty, Ptr, Sum, A); },
      [] {});
  B.CreateBr(Next);
  if (AtEnd) {
    SplitBefore->eraseFromParent();
    B.SetInsertPoint(Next);
  } else {
    B.SetInsertPoint(SplitBefore);
  }
}

/// The atomic addition of a scalar in CUDA device code. When the whole warp
/// adds into one address (a parameter every thread read), the warp sums
/// its adjoints first and one lane adds: thousands of threads adding into
/// a few addresses otherwise wait for each other.
static void warpAggregatedAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                              Align A) {
  Function &F = *B.GetInsertBlock()->getParent();
  if (!WarpAggregatedAtomics || (!Ty->isFloatTy() && !Ty->isDoubleTy()) ||
      smVersion(F) < 70) {
    atomicAdd(B, Ty, Ptr, D, A);
    return;
  }
  Value *Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}, {});
  Value *Full = B.CreateICmpEQ(Active, B.getInt32(-1), "warp.full");
  ifThenElse(
      B, Full,
      [&] {
        Value *Match = B.CreateIntrinsic(
            Intrinsic::nvvm_match_all_sync_i64p, {},
            {B.getInt32(-1), B.CreatePtrToInt(Ptr, B.getInt64Ty())});
        Value *Uniform = B.CreateExtractValue(Match, 1, "address.uniform");
        ifThenElse(
            B, Uniform,
            [&] {
              Value *Sum = D;
              for (unsigned Offset = 16; Offset > 0; Offset /= 2)
                Sum = B.CreateFAdd(Sum, emitWarpShuffle(B, ShuffleMode::Xor,
                                                        B.getInt32(-1), Sum,
                                                        B.getInt32(Offset),
                                                        B.getInt32(31)));
              Value *Lane = B.CreateIntrinsic(
                  Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
              ifThenElse(
                  B, B.CreateICmpEQ(Lane, B.getInt32(0)),
                  [&] { atomicAdd(B, Ty, Ptr, Sum, A); }, [] {});
            },
            [&] { peerAggregatedAdd(B, Ty, Ptr, D, A); });
      },
      [&] { atomicAdd(B, Ty, Ptr, D, A); });
}

void accumulateAdjoint(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                       MaybeAlign Alignment, bool Atomic) {
  if (!Atomic) {
    plainAdd(B, Ty, Ptr, D, Alignment);
    return;
  }
  Module &M = *B.GetInsertBlock()->getModule();
  Align A = Alignment.value_or(M.getDataLayout().getABITypeAlign(Ty));
  if (!isCudaModule(M)) {
    atomicAdd(B, Ty, Ptr, D, A);
    return;
  }
  if (Ptr->getType()->getPointerAddressSpace() != 0 ||
      isa<GlobalVariable>(getUnderlyingObject(Ptr))) {
    warpAggregatedAdd(B, Ty, Ptr, D, A);
    return;
  }
  // PTX atomics through a generic address of local memory are undefined,
  // and a shadow the caller passed may be a local variable of its thread:
  // that one, only this thread sees.
  Value *IsLocal = B.CreateIntrinsic(Intrinsic::nvvm_isspacep_local, {}, {Ptr},
                                     nullptr, "shadow.is.local");
  ifThenElse(
      B, IsLocal, [&] { plainAdd(B, Ty, Ptr, D, A); },
      [&] { warpAggregatedAdd(B, Ty, Ptr, D, A); });
}

void accumulateAdjointUnless(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                             MaybeAlign Alignment, Value *Plain) {
  ifThenElse(
      B, Plain, [&] { plainAdd(B, Ty, Ptr, D, Alignment); },
      [&] { accumulateAdjoint(B, Ty, Ptr, D, Alignment, /*Atomic=*/true); });
}

} // namespace enzyme
