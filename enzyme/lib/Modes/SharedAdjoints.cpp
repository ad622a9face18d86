//===- SharedAdjoints.cpp - Adjoints of memory other threads read ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/SharedAdjoints.h"
#include "Modes/BlockAdjointSums.h"

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
  // A struct passed by value is the callee's own copy, and so is its
  // shadow: the caller's copy's shadow (Modes/PreparedFunction.cpp), or the
  // thread's copy in a launch's reverse kernel.
  return Objects.empty() || !all_of(Objects, [](const Value *O) {
           const auto *Arg = dyn_cast<Argument>(O);
           return isa<AllocaInst>(O) || (Arg && Arg->hasByValAttr());
         });
}

/// The additions of one floating-point scalar or vector; for a scalar that
/// LLVM adds atomically itself, the addition.
static AtomicRMWInst *atomicAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
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
      return nullptr;
    }
    return B.CreateAtomicRMW(AtomicRMWInst::FAdd, Ptr, D, Alignment,
                             AtomicOrdering::Monotonic);
  }
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Type *Elem = VT->getElementType();
    uint64_t Size = DL.getTypeStoreSize(Elem);
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      atomicAdd(B, Elem, B.CreateConstInBoundsGEP1_64(Elem, Ptr, I),
                B.CreateExtractElement(D, I),
                commonAlignment(Alignment, I * Size));
    return nullptr;
  }
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      atomicAdd(B, ST->getElementType(I), B.CreateStructGEP(ST, Ptr, I),
                B.CreateExtractValue(D, I),
                commonAlignment(Alignment, Layout->getElementOffset(I)));
    return nullptr;
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
  return nullptr;
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
    cl::desc("Let the lanes of a warp that add adjoints into one address "
             "sum them first, one lane adding (CUDA device code); "
             "enzyme-clang turns it off under CUDA emulation, whose "
             "__activemask does not see divergence"));

/// The SM version of \p F's target ("sm_75" is 75), or 0.
static unsigned smVersion(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned Version = 0;
  if (!CPU.consume_front("sm_") ||
      CPU.take_while(isDigit).getAsInteger(10, Version))
    return 0;
  return Version;
}

struct WarpPeerGroups::Group {
  /// Where the group was found (it reaches later points of its run).
  Instruction *Anchor;
  Place At;
  Value *Lane;
  /// The lanes that found the group together: its shuffles and votes name
  /// them.
  Value *Active;
  /// Whether this lane's address is in its own local memory (null where it
  /// cannot be): such a lane adds plainly, and on its own.
  Value *IsLocal;
  /// Whether this lane's address is in global memory (null where it is not
  /// a generic address).
  Value *IsGlobal;
  /// The whole warp adds into one address (the same in every lane).
  Value *Uniform;
  /// Some lanes share an address (the same in every lane).
  Value *AnyShared;
  /// This lane's peers, and whether it is the lowest of them.
  Value *Peers, *IsFirst;
  /// The rounds of the tree in which the peers of each address sum their
  /// adjoints (five take any group of a warp to its lowest lane). Which
  /// lane gives its sum to which depends on the group alone, not on what is
  /// summed: found once, for every addition of the run. In round R, a lane
  /// where Takes[R] holds adds the sum of lane From[R]; Any[R] (the same in
  /// every lane) says whether any lane takes, and when not, no later round
  /// has any either.
  static constexpr unsigned Rounds = 5;
  Value *Takes[Rounds], *From[Rounds], *Any[Rounds];
};

WarpPeerGroups::WarpPeerGroups() = default;
WarpPeerGroups::~WarpPeerGroups() = default;

void WarpPeerGroups::clear() {
  Places.clear();
  Groups.clear();
}

WarpPeerGroups::Place WarpPeerGroups::placeOf(BasicBlock *BB) {
  auto [It, New] = Places.try_emplace(BB, Place{NextRun, 0});
  if (New)
    ++NextRun;
  return It->second;
}

void WarpPeerGroups::continueRun(BasicBlock *From, BasicBlock *To) {
  if (From == To)
    return;
  Place P = placeOf(From);
  Places[To] = Place{P.Run, P.Position + 1};
}

namespace {
/// Where control flow emitted at a builder's insertion point ends: the
/// block that continues after it, from the instruction it was before.
struct SplitPoint {
  BasicBlock *Tail;
  Instruction *Before;
  bool AtEnd;
};
} // namespace

/// Splits the builder's block at its insertion point, leaving the builder at
/// the end of the first half (which has no terminator yet).
static SplitPoint splitAtInsertPoint(IRBuilder<> &B) {
  BasicBlock *Head = B.GetInsertBlock();
  bool AtEnd = B.GetInsertPoint() == Head->end();
  Instruction *Before = AtEnd ? B.CreateUnreachable() : &*B.GetInsertPoint();
  BasicBlock *Tail = SplitBlock(Head, Before);
  Head->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Head);
  return {Tail, Before, AtEnd};
}

/// Puts the builder where \p S was split, in the block after it.
static void continueAfter(IRBuilder<> &B, const SplitPoint &S) {
  if (S.AtEnd) {
    S.Before->eraseFromParent();
    B.SetInsertPoint(S.Tail);
  } else {
    B.SetInsertPoint(S.Before);
  }
}

/// Finds this lane's peers among the active lanes: those whose \p Base is
/// its own. A lane whose address is in its local memory (the same number
/// may name another lane's local memory) keys on its lane number instead,
/// which no global address equals.
static void findPeers(IRBuilder<> &B, Value *Base, bool MayBeLocal,
                      WarpPeerGroups::Group &G) {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  G.Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {},
                             nullptr, "lane");
  G.Anchor = cast<Instruction>(G.Lane);
  G.Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}, {}, nullptr,
                               "active.lanes");
  Value *Key = B.CreatePtrToInt(Base, I64);
  G.IsLocal = G.IsGlobal = nullptr;
  if (MayBeLocal) {
    G.IsGlobal = emitShadowSpaceQuery(B, Intrinsic::nvvm_isspacep_global, Base,
                                      "shadow.is.global");
    G.IsLocal = emitShadowSpaceQuery(B, Intrinsic::nvvm_isspacep_local, Base,
                                     "shadow.is.local");
    Key = B.CreateSelect(G.IsLocal, B.CreateZExt(G.Lane, I64), Key);
  }
  G.Peers = B.CreateIntrinsic(Intrinsic::nvvm_match_any_sync_i64, {},
                              {G.Active, Key}, nullptr, "peers");
  G.Uniform = B.CreateICmpEQ(G.Peers, B.getInt32(-1), "address.uniform");
  // Masks of the lanes below this one, and of those above it (64-bit: the
  // shifts reach 32).
  Value *Lane64 = B.CreateZExt(G.Lane, I64);
  Value *Below = B.CreateTrunc(
      B.CreateSub(B.CreateShl(B.getInt64(1), Lane64), B.getInt64(1)), I32);
  Value *UpToSelf = B.CreateTrunc(
      B.CreateSub(B.CreateShl(B.getInt64(2), Lane64), B.getInt64(1)), I32);
  Value *Round = B.CreateUnaryIntrinsic(
      Intrinsic::ctpop, B.CreateAnd(G.Peers, Below), nullptr, "rank");
  Value *Left = B.CreateAnd(G.Peers, B.CreateNot(UpToSelf), "higher.peers");
  // The rounds of the tree. Each round, a lane with a peer above it that
  // still holds a sum takes the nearest one's; the lanes of odd rank gave
  // theirs away. (Found where no lane shares too: skipping them there
  // saved nothing measurable, and cost the lanes that share.)
  constexpr unsigned Rounds = WarpPeerGroups::Group::Rounds;
  for (unsigned R = 0; R < Rounds; ++R) {
    G.Takes[R] = B.CreateICmpNE(Left, B.getInt32(0), "takes");
    G.Any[R] = B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                                 {G.Active, G.Takes[R]}, nullptr, "any.takes");
    G.From[R] = B.CreateSelect(
        G.Takes[R], B.CreateBinaryIntrinsic(Intrinsic::cttz, Left, B.getTrue()),
        G.Lane, "takes.from");
    if (R + 1 == Rounds)
      break;
    Value *Stays =
        B.CreateICmpEQ(B.CreateAnd(Round, B.getInt32(1)), B.getInt32(0));
    Value *Staying = B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                                       {G.Active, Stays});
    Left = B.CreateAnd(Left, Staying);
    Round = B.CreateLShr(Round, B.getInt32(1));
  }
  G.AnyShared = G.Any[0];
  G.IsFirst = B.CreateICmpEQ(
      G.Lane, B.CreateBinaryIntrinsic(Intrinsic::cttz, G.Peers, B.getFalse()),
      "first.peer");
}

const WarpPeerGroups::Group &WarpPeerGroups::at(IRBuilder<> &B, Value *Base,
                                                bool MayBeLocal) {
  BasicBlock *BB = B.GetInsertBlock();
  Place Here = placeOf(BB);
  std::unique_ptr<Group> &G = Groups[{Here.Run, Base}];
  // An earlier group reaches here when it was found in an earlier block of
  // the run, or earlier in this one.
  if (G && (G->At.Position < Here.Position ||
            (G->At.Position == Here.Position &&
             (B.GetInsertPoint() == BB->end() ||
              G->Anchor->comesBefore(&*B.GetInsertPoint())))))
    return *G;
  G = std::make_unique<Group>();
  findPeers(B, Base, MayBeLocal, *G);
  G->At = Here;
  return *G;
}

/// The atomic addition through a generic address, through the global
/// window where \p IsGlobal holds: a generic atomic is resolved at run time
/// and returns the old value, an addition to global memory whose result is
/// unused is a reduction.
/// \p OfWarp: the addition of a whole warp's sum into global memory is
/// marked for BlockAdjointSums.h.
static void atomicAddInSpace(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                             Align A, Value *IsGlobal, bool OfWarp = false) {
  auto AddToGlobal = [&](Value *Global) {
    AtomicRMWInst *Add = atomicAdd(B, Ty, Global, D, A);
    if (Add && OfWarp)
      markWarpSumAddition(*Add);
  };
  if (!IsGlobal) {
    if (Ptr->getType()->getPointerAddressSpace() == 1)
      AddToGlobal(Ptr);
    else
      atomicAdd(B, Ty, Ptr, D, A);
    return;
  }
  ifThenElse(
      B, IsGlobal,
      [&] {
        AddToGlobal(B.CreateAddrSpaceCast(
            Ptr, PointerType::get(B.getContext(), 1), "global.shadow"));
      },
      [&] { atomicAdd(B, Ty, Ptr, D, A); });
}

/// `*Ptr += D` by this lane alone: plainly into its local memory, atomically
/// elsewhere.
static void addByOneLane(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                         Align A, const WarpPeerGroups::Group &G) {
  if (!G.IsLocal) {
    atomicAddInSpace(B, Ty, Ptr, D, A, G.IsGlobal);
    return;
  }
  ifThenElse(
      B, G.IsLocal, [&] { plainAdd(B, Ty, Ptr, D, A); },
      [&] { atomicAddInSpace(B, Ty, Ptr, D, A, G.IsGlobal); });
}

/// The lanes of each address (its peers) sum their adjoints in the group's
/// rounds of shuffles and the lowest of them adds. The rounds stop at the
/// first where no lane takes (a branch the lanes take together).
static void sumAmongPeers(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                          Align A, const WarpPeerGroups::Group &G) {
  Function &F = *B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Entry = B.GetInsertBlock();
  SplitPoint After = splitAtInsertPoint(B);
  auto *Done = BasicBlock::Create(Ctx, "peers.done", &F, After.Tail);
  B.SetInsertPoint(Done);
  PHINode *Total =
      B.CreatePHI(Ty, WarpPeerGroups::Group::Rounds + 1, "peers.sum");

  B.SetInsertPoint(Entry);
  Value *Sum = D;
  for (unsigned R = 0; R < WarpPeerGroups::Group::Rounds; ++R) {
    auto *Add = BasicBlock::Create(Ctx, "peers.add", &F, Done);
    Total->addIncoming(Sum, B.GetInsertBlock());
    B.CreateCondBr(G.Any[R], Add, Done);
    B.SetInsertPoint(Add);
    // Every lane shuffles (a shuffle needs all the lanes it names).
    Value *Theirs = emitWarpShuffle(B, ShuffleMode::Index, G.Active, Sum,
                                    G.From[R], B.getInt32(31));
    Sum = B.CreateSelect(G.Takes[R], B.CreateFAdd(Sum, Theirs), Sum);
  }
  Total->addIncoming(Sum, B.GetInsertBlock());
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  ifThenElse(
      B, G.IsFirst, [&] { addByOneLane(B, Ty, Ptr, Total, A, G); }, [] {});
  B.CreateBr(After.Tail);
  continueAfter(B, After);
}

/// The atomic addition of a scalar in CUDA device code, by the lanes of a
/// warp together. When the whole warp adds into one address (a parameter
/// every thread read), the warp sums its adjoints and one lane adds; when
/// lanes share addresses (each thread's row of a table shared by all), each
/// address's lanes sum theirs first. Thousands of threads adding into a few
/// addresses otherwise wait for each other.
static void warpAggregatedAdd(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                              Align A, bool MayBeLocal, WarpPeerGroups *Peers) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  BasicBlock *Start = B.GetInsertBlock();
  WarpPeerGroups OneAddition;
  const WarpPeerGroups::Group &G =
      (Peers ? *Peers : OneAddition).at(B, Base, MayBeLocal);
  ifThenElse(
      B, G.Uniform,
      [&] {
        Value *Sum = D;
        for (unsigned Offset = 16; Offset > 0; Offset /= 2)
          Sum = B.CreateFAdd(
              Sum, emitWarpShuffle(B, ShuffleMode::Xor, B.getInt32(-1), Sum,
                                   B.getInt32(Offset), B.getInt32(31)));
        ifThenElse(
            B, B.CreateICmpEQ(G.Lane, B.getInt32(0)),
            [&] {
              atomicAddInSpace(B, Ty, Ptr, Sum, A, G.IsGlobal,
                               /*OfWarp=*/true);
            },
            [] {});
      },
      [&] {
        ifThenElse(
            B, G.AnyShared, [&] { sumAmongPeers(B, Ty, Ptr, D, A, G); },
            [&] { addByOneLane(B, Ty, Ptr, D, A, G); });
      });
  if (Peers)
    Peers->continueRun(Start, B.GetInsertBlock());
}

void accumulateAdjoint(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                       MaybeAlign Alignment, bool Atomic,
                       WarpPeerGroups *Peers) {
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
  // PTX atomics through a generic address of local memory are undefined,
  // and a shadow the caller passed may be a local variable of its thread:
  // that one, only this thread sees.
  bool MayBeLocal = Ptr->getType()->getPointerAddressSpace() == 0 &&
                    !isa<GlobalVariable>(getUnderlyingObject(Ptr));
  if (WarpAggregatedAtomics && (Ty->isFloatTy() || Ty->isDoubleTy()) &&
      smVersion(*B.GetInsertBlock()->getParent()) >= 70) {
    warpAggregatedAdd(B, Ty, Ptr, D, A, MayBeLocal, Peers);
    return;
  }
  // (CUDA emulation comes here: it has no global window to tell apart.)
  WarpPeerGroups::Group Alone{};
  if (MayBeLocal)
    Alone.IsLocal = emitShadowSpaceQuery(B, Intrinsic::nvvm_isspacep_local, Ptr,
                                         "shadow.is.local");
  addByOneLane(B, Ty, Ptr, D, A, Alone);
}

void accumulateAdjointUnless(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                             MaybeAlign Alignment, Value *Plain,
                             WarpPeerGroups *Peers) {
  ifThenElse(
      B, Plain, [&] { plainAdd(B, Ty, Ptr, D, Alignment); },
      [&] {
        accumulateAdjoint(B, Ty, Ptr, D, Alignment, /*Atomic=*/true, Peers);
      });
}

} // namespace enzyme
