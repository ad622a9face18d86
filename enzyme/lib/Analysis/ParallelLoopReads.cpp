//===- ParallelLoopReads.cpp - Reads no two threads share -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ParallelLoopReads.h"
#include "Analysis/KnownFunctions.h"
#include "Core/KokkosRuntime.h"
#include "Core/OpenMPRuntime.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace enzyme {

static cl::opt<bool> PrintParallelReads(
    "enzyme-print-parallel-reads", cl::init(false), cl::Hidden,
    cl::desc("Print how the reverse pass adds the adjoints of each "
             "floating-point read of an OpenMP region's body"));

namespace {
/// Where a worksharing call of the OpenMP runtime writes the bounds of the
/// iterations it gives the calling thread.
struct WorksharingSlots {
  int LowerBound = -1;
  int Stride = -1;
  /// The call opens the construct (the thread asks once).
  bool Opens = false;
};
} // namespace

static WorksharingSlots worksharingSlots(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return {};
  StringRef Name = Callee->getName();
  auto IntegerSuffix = [](StringRef Suffix) {
    return Suffix == "4" || Suffix == "4u" || Suffix == "8" || Suffix == "8u";
  };
  WorksharingSlots Slots;
  if (Name.consume_front("__kmpc_for_static_init_") && IntegerSuffix(Name) &&
      Call.arg_size() == 9) {
    Slots.LowerBound = 4;
    Slots.Stride = 6;
    Slots.Opens = true;
  } else if (Name.consume_front("__kmpc_dispatch_next_") &&
             IntegerSuffix(Name) && Call.arg_size() == 6) {
    Slots.LowerBound = 3;
  } else if (Name.consume_front("__kmpc_dispatch_init_") &&
             IntegerSuffix(Name)) {
    Slots.Opens = true;
  }
  return Slots;
}

/// A call that schedules the team's work (OpenMP's runtime, Kokkos' work
/// partition): it touches its own slots and the runtime's state only.
static bool isSchedulingCall(const CallBase &Call) {
  return isInactiveOpenMPCall(Call) ||
         kokkosWorkPartitionCall(Call) != KokkosPartitionCall::None;
}

/// Every object \p Ptr may point into is on the thread's stack.
static bool pointsIntoStack(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() &&
         all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

bool ParallelLoopReads::sameComputation(const Value *A, const Value *B,
                                        unsigned Depth) {
  if (A == B)
    return true;
  auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || Depth > 8 || !IA->isSameOperationAs(IB) ||
      isa<PHINode>(IA) || isa<CallBase>(IA) || isa<AllocaInst>(IA) ||
      IA->mayWriteToMemory())
    return false;
  for (auto [OA, OB] : zip(IA->operands(), IB->operands()))
    if (!sameComputation(OA, OB, Depth + 1))
      return false;
  return true;
}

ParallelLoopReads::ParallelLoopReads(
    Function &Body, AAResults &AA, ScalarEvolution &SE, LoopInfo &LI,
    DominatorTree &DT, function_ref<bool(const CallBase &)> WritesNoUserMemory,
    function_ref<Value *(const ReadGroup &, ArrayRef<ReadGroup>)> Guard,
    function_ref<bool(const TileReadGroup &)> CheckPoints)
    : AA(AA), SE(SE), LI(LI), DT(DT) {
  for (Instruction &I : instructions(Body)) {
    if (!I.mayWriteToMemory())
      continue;
    // The runtime's calls write their own slots (allocas of the body) and
    // the runtime's state, never the program's memory.
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && (isSchedulingCall(*Call) || isFreshAllocationCall(*Call) ||
                 WritesNoUserMemory(*Call)))
      continue;
    Writers.push_back(&I);
  }
  findWorksharingSlots(Body);
  findIterationNumbers();
  classify(Body, WritesNoUserMemory, Guard, CheckPoints);
  if (PrintParallelReads)
    print(Body, errs());
}

void ParallelLoopReads::print(Function &Body, raw_ostream &OS) const {
  OS << "parallel reads of " << Body.getName() << ": "
     << IterationNumbers.size() << " worksharing loop(s)\n";
  for (Instruction &I : instructions(Body)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Load->getType()->isFPOrFPVectorTy())
      continue;
    static const char *Names[] = {"shared", "exclusive", "privatized"};
    OS << "  " << Names[int(sharing(*Load))];
    if (conditionOf(*Load))
      OS << " if checked";
    if (checkedByTeam(*Load))
      OS << " if the team's points pass";
    OS << ":" << *Load << "\n";
  }
}

void ParallelLoopReads::findWorksharingSlots(Function &Body) {
  SmallVector<CallBase *, 2> Openers;
  for (Instruction &I : instructions(Body)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    if (worksharingSlots(*Call).Opens) {
      Openers.push_back(Call);
      if (!Location)
        Location = Call->getArgOperand(0);
    }
    // Kokkos' partition is one construct when every thread asks for the
    // same length and chunk.
    if (kokkosWorkPartitionCall(*Call) == KokkosPartitionCall::Set) {
      if (isThreadInvariant(Call->getArgOperand(1)) &&
          isThreadInvariant(Call->getArgOperand(2)))
        PartitionSetters.push_back(Call);
      else
        OpenedInLoop = true;
    }
  }
  for (CallBase *Opener : concat<CallBase *>(Openers, PartitionSetters))
    // A construct that a thread may open twice (in a loop of the body) may
    // give one iteration to two threads, in two rounds without a barrier
    // between them: its loop is no worksharing loop here.
    if (LI.getLoopFor(Opener->getParent()))
      OpenedInLoop = true;
  for (Instruction &I : instructions(Body)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    WorksharingSlots Slots = worksharingSlots(*Call);
    // The slots hold the runtime's bounds once the construct is open (a
    // dynamic schedule's chunks come from calls after the opening one).
    auto Opener = find_if(Openers, [&](CallBase *O) {
      return O == Call || DT.dominates(O, Call);
    });
    if (Opener == Openers.end())
      continue;
    if (Slots.LowerBound >= 0)
      LowerBoundSlots[Call->getArgOperand(Slots.LowerBound)
                          ->stripPointerCasts()] = *Opener;
    if (Slots.Stride >= 0)
      StrideSlots[Call->getArgOperand(Slots.Stride)->stripPointerCasts()] =
          *Opener;
  }
}

CallBase *ParallelLoopReads::slotOpener(
    const Value *V, const DenseMap<const Value *, CallBase *> &Slots) {
  while (isa<SExtInst, ZExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !Load->isSimple())
    return nullptr;
  CallBase *Opener =
      Slots.lookup(Load->getPointerOperand()->stripPointerCasts());
  return Opener && DT.dominates(Opener, Load) ? Opener : nullptr;
}

bool ParallelLoopReads::isChunkStart(Value *V, SmallPtrSetImpl<Value *> &Seen,
                                     CallBase *&Opener) {
  while (isa<SExtInst, ZExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  // A cycle through phis: the values entering it decide.
  if (!Seen.insert(V).second)
    return true;
  // Chunks of one construct.
  auto SameConstruct = [&](CallBase *Of) {
    if (!Of || (Opener && Opener != Of))
      return false;
    Opener = Of;
    return true;
  };
  if (SameConstruct(slotOpener(V, LowerBoundSlots)))
    return true;
  // The first of the {first, second} part a Kokkos partition gave.
  if (auto *EV = dyn_cast<ExtractValueInst>(V);
      EV && EV->getNumIndices() == 1 && EV->getIndices()[0] == 0)
    if (auto *Get = dyn_cast<CallBase>(EV->getAggregateOperand());
        Get && kokkosWorkPartitionCall(*Get) == KokkosPartitionCall::Get)
      return SameConstruct(partitionSetterOf(*Get));
  if (auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(),
                  [&](Value *In) { return isChunkStart(In, Seen, Opener); });
  // The next chunk of a static schedule: the last start plus the stride
  // the runtime gave.
  // (One visit per value: a second try could meet values the first one
  // marked seen.)
  if (auto *Add = dyn_cast<BinaryOperator>(V);
      Add && Add->getOpcode() == Instruction::Add) {
    CallBase *Strides[] = {slotOpener(Add->getOperand(0), StrideSlots),
                           slotOpener(Add->getOperand(1), StrideSlots)};
    if (bool(Strides[0]) == bool(Strides[1]))
      return false;
    unsigned I = Strides[0] ? 0 : 1;
    return SameConstruct(Strides[I]) &&
           isChunkStart(Add->getOperand(1 - I), Seen, Opener);
  }
  return false;
}

CallBase *ParallelLoopReads::partitionSetterOf(CallBase &Get) {
  // The last partition of this thread's team data before it.
  for (CallBase *Set : PartitionSetters)
    if (DT.dominates(Set, &Get) &&
        sameComputation(Set->getArgOperand(0), Get.getArgOperand(0), 0) &&
        none_of(PartitionSetters, [&](CallBase *Other) {
          return Other != Set && DT.dominates(Set, Other) &&
                 DT.dominates(Other, &Get);
        }))
      return Set;
  return nullptr;
}

bool ParallelLoopReads::inThreadTeamData(const Value *Ptr) const {
  // The scratch of Kokkos' team data (a reduction's partial result) is the
  // calling thread's own: memory a pointer loaded from that data points to.
  auto *Scratch = dyn_cast<LoadInst>(getUnderlyingObject(Ptr));
  if (!Scratch)
    return false;
  const Value *Data =
      getUnderlyingObject(Scratch->getPointerOperand()->stripPointerCasts());
  return any_of(PartitionSetters, [&](CallBase *Set) {
    return sameComputation(Set->getArgOperand(0), Data, 0);
  });
}

void ParallelLoopReads::findIterationNumbers() {
  if ((LowerBoundSlots.empty() && PartitionSetters.empty()) || OpenedInLoop)
    return;
  for (Loop *L : LI.getLoopsInPreorder()) {
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (!Phi.getType()->isIntegerTy() || !SE.isSCEVable(Phi.getType()))
        continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
      if (!AR || AR->getLoop() != L || !AR->isAffine() ||
          !AR->getStepRecurrence(SE)->isOne())
        continue;
      // Each entry starts at a chunk the runtime gave this thread, and the
      // loop counts through it by one: iteration numbers no other thread
      // runs.
      SmallPtrSet<Value *, 8> Seen;
      CallBase *Opener = nullptr;
      bool FromChunks = true;
      // Every thread may shift its chunks by one amount (a range policy's
      // begin): they stay apart.
      std::optional<Value *> Shift;
      for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I) {
        if (L->contains(Phi.getIncomingBlock(I)))
          continue;
        Value *Start = Phi.getIncomingValue(I);
        Value *By = nullptr;
        // Probed apart: a failed probe must not leave values marked seen
        // (which would pass as chunk starts on a second visit).
        auto StartsChunks = [&](Value *V) {
          SmallPtrSet<Value *, 8> Probed;
          CallBase *Of = Opener;
          return isChunkStart(V, Probed, Of);
        };
        if (auto *Add = dyn_cast<BinaryOperator>(Start);
            Add && Add->getOpcode() == Instruction::Add && !StartsChunks(Start))
          for (unsigned Op = 0; Op < 2 && !By; ++Op)
            if (isThreadInvariant(Add->getOperand(Op))) {
              By = Add->getOperand(Op);
              Start = Add->getOperand(1 - Op);
            }
        FromChunks &=
            (!Shift || (*Shift && By && sameComputation(*Shift, By, 0)) ||
             (!*Shift && !By)) &&
            isChunkStart(Start, Seen, Opener);
        Shift = By;
      }
      if (FromChunks && Opener) {
        IterationNumbers[L] = {&Phi, Opener, Shift ? *Shift : nullptr};
        break;
      }
    }
  }
}

/// The parameter \p Ptr points into when it is a local of the forking
/// function that only the region reaches and whose address the body keeps
/// to itself (no store or call takes it): no other pointer can point there.
/// \p OnlyRead is set when the body only reads it.
static const Argument *unescapedRegionLocal(const Value *Ptr,
                                            bool *OnlyRead = nullptr) {
  auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr));
  if (!A || !isRegionLocal(*A))
    return nullptr;
  bool Reads = true;
  SmallVector<const Value *, 8> Work = {A};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (isa<GetElementPtrInst, BitCastInst>(User)) {
        Work.push_back(User);
      } else if (auto *Store = dyn_cast<StoreInst>(User)) {
        if (U.getOperandNo() != StoreInst::getPointerOperandIndex())
          return nullptr;
        Reads = false;
      } else if (!isa<LoadInst>(User) && !User->isLifetimeStartOrEnd() &&
                 !isa<DbgInfoIntrinsic>(User)) {
        return nullptr;
      }
    }
  }
  if (OnlyRead)
    *OnlyRead = Reads;
  return A;
}

bool ParallelLoopReads::mayBeWritten(const MemoryLocation &Loc) {
  bool OnlyRead = false;
  if (unescapedRegionLocal(Loc.Ptr, &OnlyRead) && OnlyRead)
    return false;
  const Argument *Local = unescapedRegionLocal(Loc.Ptr);
  return any_of(Writers, [&](Instruction *W) {
    // A store into a local only the region reaches writes nothing else.
    if (auto *Store = dyn_cast<StoreInst>(W))
      if (const Argument *Into =
              unescapedRegionLocal(Store->getPointerOperand());
          Into && Into != Local)
        return false;
    return isModSet(AA.getModRefInfo(W, Loc));
  });
}

bool ParallelLoopReads::isThreadInvariant(const Value *V) {
  auto [It, Inserted] = InvariantValues.try_emplace(V, false);
  if (!Inserted)
    return It->second;
  bool Invariant = false;
  if (auto *GV = dyn_cast<GlobalValue>(V)) {
    Invariant = !GV->isThreadLocal();
  } else if (isa<Constant>(V)) {
    Invariant = true;
  } else if (auto *A = dyn_cast<Argument>(V)) {
    // The team's shared arguments; the first two are the thread's ids.
    Invariant = A->getArgNo() >= 2;
  } else if (auto *Load = dyn_cast<LoadInst>(V)) {
    Invariant = Load->isSimple() &&
                isThreadInvariant(Load->getPointerOperand()) &&
                !mayBeWritten(MemoryLocation::get(Load));
  } else if (isa<GetElementPtrInst, CastInst, BinaryOperator, CmpInst,
                 SelectInst, ExtractValueInst, FreezeInst>(V)) {
    Invariant = all_of(cast<Instruction>(V)->operands(),
                       [&](const Use &Op) { return isThreadInvariant(Op); });
  }
  InvariantValues[V] = Invariant;
  return Invariant;
}

bool ParallelLoopReads::isThreadInvariant(const SCEV *S) {
  return !SCEVExprContains(S, [&](const SCEV *Leaf) {
    if (isa<SCEVAddRecExpr>(Leaf) || isa<SCEVCouldNotCompute>(Leaf))
      return true;
    auto *U = dyn_cast<SCEVUnknown>(Leaf);
    return U && !isThreadInvariant(U->getValue());
  });
}

namespace {
/// Rewrites an index the program truncated (`int i` computed from a 64-bit
/// iteration number I) to one in I's width: `ext(trunc(X))` to X, and
/// `ext(Y)`, for Y a narrow counter `S * trunc(I) + C` of the loop, to
/// `S * I + ext(C)`. Bits is the fewest low bits of I a rewrite kept:
/// distinct iterations stay apart on any 2^Bits consecutive ones, where
/// the truncation is one-to-one.
class TruncatedCounters : public SCEVRewriteVisitor<TruncatedCounters> {
public:
  TruncatedCounters(ScalarEvolution &SE, const Loop *L, const SCEV *Iteration)
      : SCEVRewriteVisitor(SE), L(L), Iteration(Iteration) {}

  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    if (const SCEV *Wide = peel(E, /*Signed=*/true))
      return Wide;
    return SCEVRewriteVisitor::visitSignExtendExpr(E);
  }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    if (const SCEV *Wide = peel(E, /*Signed=*/false))
      return Wide;
    return SCEVRewriteVisitor::visitZeroExtendExpr(E);
  }

  unsigned Bits = 0;

private:
  /// The constant step of a counter of the loop, or null.
  const SCEVConstant *stepOf(const SCEV *S) const {
    auto *Counter = dyn_cast<SCEVAddRecExpr>(S);
    if (!Counter || Counter->getLoop() != L || !Counter->isAffine())
      return nullptr;
    auto *Step = dyn_cast<SCEVConstant>(Counter->getStepRecurrence(SE));
    return Step && !Step->isZero() ? Step : nullptr;
  }

  const SCEV *peel(const SCEVCastExpr *Ext, bool Signed) {
    Type *Wide = Ext->getType();
    const SCEV *Narrow = Ext->getOperand(0);
    unsigned Width = SE.getTypeSizeInBits(Narrow->getType());
    const SCEV *Result = nullptr;
    unsigned Kept = Width;
    if (auto *Trunc = dyn_cast<SCEVTruncateExpr>(Narrow)) {
      const SCEVConstant *Step = stepOf(Trunc->getOperand());
      if (Trunc->getOperand()->getType() == Wide && Step && Step->isOne())
        Result = Trunc->getOperand();
    } else if (const SCEVConstant *Step = stepOf(Narrow);
               Step && Iteration->getType() == Wide) {
      // Narrow = Step * trunc(I) + Shift.
      const SCEV *Shift = SE.getMinusSCEV(
          Narrow, SE.getMulExpr(
                      Step, SE.getTruncateExpr(Iteration, Narrow->getType())));
      // A power of two keeps wrapped values a whole step apart.
      unsigned Zeros = Step->getAPInt().countr_zero();
      if (SE.isLoopInvariant(Shift, L) && Zeros < Width &&
          Step->getAPInt().abs().isPowerOf2()) {
        Result = SE.getAddExpr(
            SE.getMulExpr(SE.getConstant(Wide, Step->getAPInt().getSExtValue(),
                                         /*isSigned=*/true),
                          Iteration),
            Signed ? SE.getSignExtendExpr(Shift, Wide)
                   : SE.getZeroExtendExpr(Shift, Wide));
        Kept = Width - Zeros;
      }
    }
    if (!Result)
      return nullptr;
    Bits = Bits ? std::min(Bits, Kept) : Kept;
    return Result;
  }

  const Loop *L;
  const SCEV *Iteration;
};
} // namespace

const Loop *ParallelLoopReads::worksharingLoopAround(const Loop *L) const {
  while (L && !IterationNumbers.count(L))
    L = L->getParentLoop();
  return L;
}

std::optional<std::pair<const SCEVUnknown *, const SCEV *>>
ParallelLoopReads::invariantBaseAndOffset(LoadInst &Load) {
  const SCEV *Address = SE.getSCEV(Load.getPointerOperand());
  auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(Address));
  if (!Base || !isThreadInvariant(Base->getValue()))
    return std::nullopt;
  return std::make_pair(Base, SE.removePointerBase(Address));
}

std::optional<ParallelLoopReads::IndexedRead>
ParallelLoopReads::indexedRead(LoadInst &Load) {
  const Loop *L = worksharingLoopAround(LI.getLoopFor(Load.getParent()));
  if (!L || !Load.isSimple())
    return std::nullopt;
  auto Split = invariantBaseAndOffset(Load);
  if (!Split)
    return std::nullopt;
  auto [Base, Offset] = *Split;
  const SCEV *Iteration = SE.getSCEV(IterationNumbers.lookup(L).Counter);
  // An index truncated on the way (`int i` from a 64-bit loop) counts by
  // one as long as the construct has fewer than 2^Bits iterations.
  TruncatedCounters Peeled(SE, L, Iteration);
  if (!isa<SCEVAddRecExpr>(Offset))
    Offset = Peeled.visit(Offset);
  auto *AR = dyn_cast<SCEVAddRecExpr>(Offset);
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step)
    return std::nullopt;
  int64_t Stride = Step->getAPInt().getSExtValue();
  uint64_t Size =
      Load.getDataLayout().getTypeStoreSize(Load.getType()).getFixedValue();
  if (Stride == 0 || uint64_t(std::abs(Stride)) < Size)
    return std::nullopt;
  // Offset = Start + Stride * i, with Start the same in every thread.
  Type *OffsetTy = Offset->getType();
  if (SE.getTypeSizeInBits(Iteration->getType()) >
      SE.getTypeSizeInBits(OffsetTy))
    return std::nullopt;
  Iteration = SE.getNoopOrSignExtend(Iteration, OffsetTy);
  const SCEV *Start = SE.getMinusSCEV(
      Offset, SE.getMulExpr(SE.getConstant(OffsetTy, Stride, true), Iteration));
  if (!isThreadInvariant(Start))
    return std::nullopt;
  return IndexedRead{&Load, L,    Base->getValue(), Stride,
                     Start, Size, Peeled.Bits};
}

std::optional<IterationSpace> ParallelLoopReads::spaceOf(const Loop *L) {
  std::optional<IterationSpace> Space = spaceOfConstruct(L);
  // A guard made of it decides alike in every thread; unsigned 32-bit
  // bounds would need zero-extending where guards sign-extend.
  if (!Space || !isThreadInvariant(Space->First) ||
      !isThreadInvariant(Space->End) ||
      IterationNumbers.lookup(L)
          .Opener->getCalledFunction()
          ->getName()
          .ends_with("_4u"))
    return std::nullopt;
  return Space;
}

std::optional<IterationSpace>
ParallelLoopReads::spaceOfConstruct(const Loop *L) {
  IterationNumber Number = IterationNumbers.lookup(L);
  CallBase *Opener = Number.Opener;
  Value *Shift = Number.Shift;
  // A Kokkos partition of [0, length).
  if (kokkosWorkPartitionCall(*Opener) == KokkosPartitionCall::Set) {
    Value *Length = Opener->getArgOperand(1);
    return IterationSpace{ConstantInt::get(Length->getType(), 0), Length,
                          /*EndInclusive=*/false, Shift};
  }
  // `__kmpc_dispatch_init_*(loc, tid, schedule, lower, upper, ...)`.
  if (Opener->getCalledFunction()->getName().starts_with(
          "__kmpc_dispatch_init_")) {
    if (Opener->arg_size() < 5)
      return std::nullopt;
    return IterationSpace{Opener->getArgOperand(3), Opener->getArgOperand(4),
                          /*EndInclusive=*/true, Shift};
  }
  // `__kmpc_for_static_init_*` reads them from its slots: the last stores
  // before it in its block.
  auto Stored = [&](Value *Slot) -> Value * {
    for (Instruction *I = Opener->getPrevNode(); I; I = I->getPrevNode()) {
      if (auto *Store = dyn_cast<StoreInst>(I);
          Store && Store->getPointerOperand()->stripPointerCasts() == Slot)
        return Store->getValueOperand();
      if (I->mayWriteToMemory() && !isa<StoreInst>(I) &&
          !I->isLifetimeStartOrEnd())
        return nullptr;
    }
    return nullptr;
  };
  Value *First = Stored(Opener->getArgOperand(4)->stripPointerCasts());
  Value *Last = Stored(Opener->getArgOperand(5)->stripPointerCasts());
  if (!First || !Last)
    return std::nullopt;
  return IterationSpace{First, Last, /*EndInclusive=*/true, Shift};
}

bool ParallelLoopReads::overlaps(const LoadInst &Load, const OtherRead &O) {
  const Argument *Local = unescapedRegionLocal(Load.getPointerOperand());
  if (O.Ptr && Local != unescapedRegionLocal(O.Ptr) &&
      (Local || unescapedRegionLocal(O.Ptr)))
    return false;
  MemoryLocation Group = MemoryLocation::getBeforeOrAfter(
      Load.getPointerOperand(), Load.getAAMetadata());
  if (!O.Ptr)
    return isRefSet(AA.getModRefInfo(O.I, Group));
  return !AA.isNoAlias(
      Group, MemoryLocation::getBeforeOrAfter(O.Ptr, O.I->getAAMetadata()));
}

void ParallelLoopReads::classify(
    Function &Body, function_ref<bool(const CallBase &)> WritesNoUserMemory,
    function_ref<Value *(const ReadGroup &, ArrayRef<ReadGroup>)> Guard,
    function_ref<bool(const TileReadGroup &)> CheckPoints) {
  SmallVector<IndexedRead, 8> Indexed;
  SmallVector<TileRead, 8> Tiled;
  SmallVector<OtherRead, 8> Others;
  SmallVector<LoadInst *, 8> Privatized;
  for (Instruction &I : instructions(Body)) {
    if (auto *Load = dyn_cast<LoadInst>(&I)) {
      // Pointers carry no adjoint; the thread's stack is its own.
      if (Load->getType()->isPtrOrPtrVectorTy() ||
          pointsIntoStack(Load->getPointerOperand()))
        continue;
      if (inThreadTeamData(Load->getPointerOperand())) {
        if (Load->getType()->isFPOrFPVectorTy())
          Sharing[Load] = ReadSharing::Exclusive;
        continue;
      }
      if (Load->getType()->isFPOrFPVectorTy()) {
        if (Load->isSimple() && isThreadInvariant(Load->getPointerOperand()) &&
            !mayBeWritten(MemoryLocation::get(Load))) {
          Privatized.push_back(Load);
          continue;
        }
        if (std::optional<IndexedRead> R = indexedRead(*Load)) {
          Indexed.push_back(*R);
          continue;
        }
        if (std::optional<TileRead> R = tileRead(*Load)) {
          Tiled.push_back(*R);
          continue;
        }
      }
      Others.push_back({Load, Load->getPointerOperand()});
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Others.push_back({RMW, RMW->getPointerOperand()});
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Others.push_back({CX, CX->getPointerOperand()});
    } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      Others.push_back({Copy, Copy->getRawSource()});
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      bool TakesPointers = any_of(Call->args(), [](const Use &Arg) {
        return Arg->getType()->isPtrOrPtrVectorTy();
      });
      if (!Call->mayReadFromMemory() || isSchedulingCall(*Call) ||
          (WritesNoUserMemory(*Call) && !TakesPointers) ||
          isa<DbgInfoIntrinsic>(Call) || Call->isLifetimeStartOrEnd())
        continue;
      Others.push_back({Call, nullptr});
    }
  }

  // Tile reads are checked apart from the others; to each other kind of
  // read they are reads of unknown elements.
  SmallVector<OtherRead, 8> NotTiled(Others);
  for (const IndexedRead &R : Indexed)
    NotTiled.push_back({R.Load, R.Load->getPointerOperand()});
  classifyTileReads(Tiled, NotTiled, CheckPoints);
  for (const TileRead &R : Tiled)
    Others.push_back({R.Load, R.Load->getPointerOperand()});

  // Privatized loads of one address share an accumulator.
  for (auto [N, Load] : enumerate(Privatized)) {
    Sharing[Load] = ReadSharing::Privatized;
    const LoadInst *&Acc = Accumulators[Load];
    Acc = Load;
    for (LoadInst *Earlier : ArrayRef(Privatized).take_front(N))
      if (Earlier->getType() == Load->getType() &&
          sameComputation(Earlier->getPointerOperand(),
                          Load->getPointerOperand(), 0)) {
        Acc = Accumulators.lookup(Earlier);
        break;
      }
  }

  // Group the indexed reads of one element: same loop, base and stride,
  // starts a constant apart.
  SmallVector<SmallVector<std::pair<IndexedRead, int64_t>, 4>, 4> Groups;
  for (const IndexedRead &R : Indexed) {
    bool Placed = false;
    for (auto &G : Groups) {
      const IndexedRead &First = G.front().first;
      if (First.L != R.L || First.Stride != R.Stride ||
          !sameComputation(First.Base, R.Base, 0))
        continue;
      auto *Apart =
          dyn_cast<SCEVConstant>(SE.getMinusSCEV(R.Start, First.Start));
      if (!Apart)
        continue;
      G.push_back({R, Apart->getAPInt().getSExtValue()});
      Placed = true;
      break;
    }
    if (!Placed)
      Groups.push_back({{R, 0}});
  }

  SmallVector<ReadGroup, 4> Described;
  SmallVector<bool, 4> Fatal;
  for (auto &G : Groups) {
    const IndexedRead &First = G.front().first;
    ReadGroup D{First.L,   First.Base, First.Start, First.Stride,
                INT64_MAX, INT64_MIN,  {},          spaceOf(First.L),
                0,         {}};
    for (auto &[R, Apart] : G) {
      D.Low = std::min(D.Low, Apart);
      D.High = std::max(D.High, Apart + int64_t(R.Size));
      D.Loads.push_back(R.Load);
      if (R.IndexBits)
        D.IndexBits =
            D.IndexBits ? std::min(D.IndexBits, R.IndexBits) : R.IndexBits;
    }
    // One iteration's reads must fit within one stride, or iteration i
    // reads what iteration i + 1 reads too; an index truncated on the way
    // needs the construct's size.
    Fatal.push_back(D.High - D.Low > std::abs(D.Stride) ||
                    (D.IndexBits && !D.Space));
    Described.push_back(std::move(D));
  }
  for (auto [N, G] : enumerate(Groups)) {
    // Nothing else the body reads may be that memory; another group of
    // the same loop may, if a run-time check shows they do not meet.
    for (auto &Member : G) {
      const IndexedRead &R = Member.first;
      for (const OtherRead &O : Others)
        Fatal[N] = Fatal[N] || overlaps(*R.Load, O);
      for (auto [M, H] : enumerate(Groups)) {
        if (M == N || is_contained(Described[N].ApartFrom, M) ||
            none_of(H, [&](auto &Other) {
              return overlaps(*R.Load, {Other.first.Load,
                                        Other.first.Load->getPointerOperand()});
            }))
          continue;
        if (Described[M].L != Described[N].L || !Described[N].Space)
          Fatal[N] = true;
        else
          Described[N].ApartFrom.push_back(M);
      }
    }
  }
  for (auto [N, D] : enumerate(Described)) {
    if (Fatal[N])
      continue;
    Value *Condition = nullptr;
    if (D.IndexBits || !D.ApartFrom.empty()) {
      Condition = Guard(D, Described);
      if (!Condition)
        continue;
    }
    for (LoadInst *Load : D.Loads) {
      Sharing[Load] = ReadSharing::Exclusive;
      if (Condition)
        Conditions[Load] = Condition;
    }
    FlushesAfterBarrier = true;
  }
}

ReadSharing ParallelLoopReads::sharing(const LoadInst &Load) const {
  return Sharing.lookup(&Load);
}

const LoadInst *ParallelLoopReads::accumulatorOf(const LoadInst &Load) const {
  return Accumulators.lookup(&Load);
}

} // namespace enzyme
