//===- ReversePlan.cpp - What the reverse pass needs, and from where ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Planning for one function: for every instruction, the primal values and
/// shadows its adjoint needs; for every such value, whether the reverse pass
/// recomputes it (cheap, side-effect-free instructions whose operands are
/// available), receives it once (computed once, outside loops, on every path
/// to the exit), or receives it per execution of the block that uses it.
///
//===----------------------------------------------------------------------===//

#include "Modes/FunctionDifferentiator.h"

#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Analysis/TripCount.h"
#include "Core/DeviceMathLibrary.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/KokkosRuntime.h"
#include "Core/MpiRuntime.h"
#include "Core/OpenMPRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"
#include "Modes/ExclusiveReadGuards.h"
#include "Modes/InlineAsmLowering.h"
#include "Modes/WarpShuffles.h"
#include "Rules/MathRules.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace enzyme {

/// Recomputation stops this deep, so that a long chain of cheap values costs
/// a tape slot instead of an unbounded recomputation. GPU threads go deeper:
/// what they record goes through slow local memory, and their index
/// arithmetic is long (a row of a table at an index read from another).
static constexpr unsigned MaxRecomputeDepth = 6, MaxGpuRecomputeDepth = 12;

static cl::opt<bool> GpuRecomputesMath(
    "enzyme-gpu-recompute-math", cl::init(true), cl::Hidden,
    cl::desc("In GPU device code, let the reverse pass recompute divisions, "
             "pure math calls and longer chains of values instead of "
             "recording them"));

static cl::opt<bool> OpenMPPlainAdjoints(
    "enzyme-openmp-plain-adjoints", cl::init(true), cl::Hidden,
    cl::desc("In an OpenMP region's body, add the adjoints of reads no two "
             "threads share without atomics (Analysis/ParallelLoopReads.h); "
             "off, every shared read's adjoint is added atomically"));

/// A math function of values only, which writes at most errno, or a call
/// of the engine's that touches the run-time's state only.
/// The integer bits \p V holds are reinterpreted as floating-point values,
/// through integer operations that move bits (a double read as two words
/// and joined).
static bool bitsBecomeFloats(const Value &V) {
  SmallVector<const Value *, 8> Work{&V};
  SmallPtrSet<const Value *, 16> Seen{&V};
  while (!Work.empty()) {
    const Value *Bits = Work.pop_back_val();
    for (const User *U : Bits->users()) {
      if (isa<BitCastInst>(U) && U->getType()->isFPOrFPVectorTy())
        return true;
      if ((isa<CastInst, PHINode, SelectInst, ExtractValueInst,
               InsertValueInst>(U) ||
           (isa<BinaryOperator>(U) &&
            (cast<BinaryOperator>(U)->isShift() ||
             cast<BinaryOperator>(U)->isBitwiseLogicOp()))) &&
          !U->getType()->isPointerTy() && Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return false;
}

static bool writesNoUserMemory(const CallBase &Call) {
  if (Call.hasFnAttr(RuntimeStateOnly))
    return true;
  return rules::findMathRule(Call) && none_of(Call.args(), [](const Use &U) {
           return U->getType()->isPointerTy();
         });
}

/// The reads of a region's body whose adjoints need no atomic, with the
/// guards some need computed in the body; none elsewhere.
static std::optional<ParallelLoopReads>
analyzeLoopReads(const ReverseSignature &Sig, Function &Prepared,
                 FunctionAnalysisManager &FAM) {
  // Vector modes do not reach a region's body (ParallelRegions.h).
  if (!OpenMPPlainAdjoints || !Sig.TeamEntry || Sig.Width != 1 ||
      isGpuModule(*Prepared.getParent()))
    return std::nullopt;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Prepared);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(Prepared);
  AllocaInst *FailedPoints = nullptr;
  return std::optional<ParallelLoopReads>(
      std::in_place, Prepared, FAM.getResult<AAManager>(Prepared), SE,
      FAM.getResult<LoopAnalysis>(Prepared), DT, writesNoUserMemory,
      [&](const ReadGroup &G, ArrayRef<ReadGroup> All) {
        return emitExclusiveReadGuard(G, All, SE, DT);
      },
      [&](const TileReadGroup &G) {
        return emitTilePointChecks(G, SE, DT, FailedPoints);
      });
}

FunctionDifferentiator::FunctionDifferentiator(ReverseModeGenerator &Gen,
                                               const ReverseSignature &Sig,
                                               Function &Prepared,
                                               const ReversePair &Pair,
                                               FunctionAnalysisManager &FAM)
    : Gen(Gen), Sig(Sig), Prep(Prepared), Pair(Pair),
      LoopReads(analyzeLoopReads(Sig, Prepared, FAM)),
      Activity(Prepared, Sig.Args, Sig.ReturnShadow, Sig.ContextShadows,
               Sig.UnshadowedFields, Sig.ReturnActive, Gen.unshadowedReturns()),
      DT(FAM.getResult<DominatorTreeAnalysis>(Prepared)),
      LI(FAM.getResult<LoopAnalysis>(Prepared)),
      SE(FAM.getResult<ScalarEvolutionAnalysis>(Prepared)), Loops(LI),
      Unmodified(Prepared, FAM.getResult<AAManager>(Prepared),
                 writesNoUserMemory) {
  for (BasicBlock &BB : Prep)
    if (isa<ReturnInst>(BB.getTerminator()))
      ExitBlock = &BB;
  RecomputesMath = GpuRecomputesMath && isGpuModule(*Prep.getParent());
  ThreadsShareMemory = isGpuModule(*Prep.getParent()) || Sig.Parallel;
  SharedShadowsStartUndefined = isGpuModule(*Prep.getParent()) &&
                                anyShadowStartsUndefined(*Prep.getParent());
}

bool FunctionDifferentiator::run(DifferentiationFailure &F) {
  Failure = &F;
  return plan() && (!Sig.FixedTape || planFixedTape()) && buildAugmented() &&
         buildReverse();
}

bool FunctionDifferentiator::fail(const Instruction *I, const Twine &Message,
                                  bool MissingDefinition) {
  return Failure->record(I, Message, MissingDefinition);
}

Align FunctionDifferentiator::adjointAlignment(const LoadInst &Load) const {
  // Shadow memory is laid out and aligned as the primal is: what is known
  // of the primal address holds for its shadow (an atomic addition needs
  // its natural alignment, or it becomes a library call).
  return std::max(
      Load.getAlign(),
      getKnownAlignment(const_cast<Value *>(Load.getPointerOperand()),
                        Prep.getDataLayout(), &Load, nullptr, &DT));
}

bool FunctionDifferentiator::hasMultiplePredecessors(BasicBlock *BB) const {
  return BB->hasNPredecessorsOrMore(2) && !BB->getUniquePredecessor();
}

ReverseSignature FunctionDifferentiator::calleeSignature(CallBase &Call) const {
  ReverseSignature Callee;
  Callee.Fn = Call.getCalledFunction();
  Callee.Args = reverseArgumentActivities(Call, Activity);
  Callee.UnshadowedFields = unshadowedFieldsOfArguments(Call, Activity);
  // Stores into shared memory zero its shadow, in callees too.
  for (auto [I, Arg] : enumerate(Call.args()))
    if (UndefinedShadow State;
        Callee.Args[I] == Activity::Dup && Arg->getType()->isPointerTy() &&
        (State = undefinedShadowAt(Arg)) != UndefinedShadow::No) {
      Callee.UndefinedShadowArgs.resize(Call.arg_size(), UndefinedShadow::No);
      Callee.UndefinedShadowArgs[I] = State;
    }
  Callee.ReturnActive = Activity.isActive(&Call);
  // A result nothing uses needs no shadow (Kokkos' decrement returns the
  // record it may have freed; a custom gradient cannot give its shadow).
  Callee.ReturnShadow = Activity.isShadowed(&Call) && !Call.use_empty();
  // Callees write into the caller's fixed tape.
  Callee.FixedTape = Sig.FixedTape;
  Callee.Width = Sig.Width;
  Callee.ContextShadows = Sig.ContextShadows;
  Callee.Parallel = Sig.Parallel;
  return Callee;
}

const ReversePair *
FunctionDifferentiator::calleePair(CallBase &Call, ReverseSignature &CalleeSig,
                                   std::optional<uint64_t> *FixedBytes) {
  CalleeSig = calleeSignature(Call);
  if (CalleeSig.Fn) {
    const ReversePair *Pair = Gen.generate(CalleeSig, *Failure);
    if (Pair && FixedBytes)
      *FixedBytes = Gen.fixedTapeBytes(CalleeSig);
    return Pair;
  }
  uint64_t Bytes = 0;
  const ReversePair *Pair =
      Gen.generateDispatch(CalleeSig, Call, *Failure, &Bytes);
  if (Pair && FixedBytes)
    *FixedBytes = Bytes;
  return Pair;
}

bool FunctionDifferentiator::freesBlockAllocatedElsewhere(
    CallBase &Call) const {
  Value *Freed = Call.getArgOperand(0);
  if (!Activity.isShadowed(Freed))
    return false;
  auto *Alloc = dyn_cast<CallBase>(Freed->stripPointerCasts());
  return !Alloc || !isAllocationCall(*Alloc) ||
         FreedAllocations.lookup(Alloc) != &Call;
}

FunctionDifferentiator::CallKind
FunctionDifferentiator::classifyCall(CallBase &Call) const {
  if (isInactiveCall(Call))
    return CallKind::Inactive;
  if (isAllocationCall(Call))
    return CallKind::Allocation;
  if (isDeallocationCall(Call))
    return CallKind::Deallocation;
  if (isa<MemTransferInst>(Call))
    return CallKind::MemoryTransfer;
  if (isa<MemSetInst>(Call))
    return CallKind::MemorySet;
  if (classifyVectorIntrinsic(Call))
    return CallKind::VectorIntrinsic;
  if (classifyWarpShuffle(Call))
    return CallKind::WarpShuffle;
  if (rules::findMathRule(Call))
    return CallKind::MathRule;
  // A call that moves derivatives through state of its own (an MPI wait,
  // which completes a message whose adjoint its reverse starts).
  if (const Function *Callee = Call.getCalledFunction();
      Callee && Callee->hasFnAttribute(CarriesHiddenDerivatives))
    return CallKind::Differentiated;
  // Derivatives leave a call only through its result or through memory
  // that a shadowed pointer argument reaches.
  bool ShadowedArgument = any_of(Call.args(), [&](const Use &U) {
    return Activity.passesShadow(U.get());
  });
  bool ResultCarries = Activity.isActive(&Call) || Activity.isShadowed(&Call);
  // Or through a global whose shadow the user declared.
  if (!ShadowedArgument && !ResultCarries &&
      !Activity.mayTouchShadowedGlobals(Call) &&
      !Activity.mayStoreActiveArgument(Call)) {
    // Except a callee that waits at a barrier of the block or warp: the
    // other threads' reverse passes wait at its mirror, so this thread's
    // must reach it too (unoptimised cooperative groups' `block.sync()`).
    if (const Function *Callee = Call.getCalledFunction();
        Callee && !Callee->isDeclaration() && isGpuModule(*Call.getModule()) &&
        Gen.reachesThreadBarrier(*Callee))
      return CallKind::Differentiated;
    return CallKind::Inactive;
  }
  // `asm volatile("" : : "r"(p) : "memory")` keeps p alive in benchmarks;
  // assembly computes nothing the engine could differentiate, but a float
  // it reads from memory with derivatives (a PTX load the engine does not
  // read as one) carries theirs.
  if (Call.isInlineAsm() && !ResultCarries &&
      !writesMemoryOperand(
          Call, [&](const Value *Ptr) { return Activity.isShadowed(Ptr); }) &&
      !(ShadowedArgument &&
        (isDifferentiableType(Call.getType()) || bitsBecomeFloats(Call))))
    return CallKind::Inactive;
  return CallKind::Differentiated;
}

void FunctionDifferentiator::collectNeeds(Instruction &I,
                                          SmallVectorImpl<NeededValue> &Needs) {
  auto IsActive = [&](Value *V) { return Activity.isActive(V); };
  switch (I.getOpcode()) {
  case Instruction::FMul:
    if (IsActive(I.getOperand(0)))
      Needs.push_back(primalOf(I.getOperand(1)));
    if (IsActive(I.getOperand(1)))
      Needs.push_back(primalOf(I.getOperand(0)));
    return;
  case Instruction::FDiv:
    if (IsActive(I.getOperand(0)) || IsActive(I.getOperand(1)))
      Needs.push_back(primalOf(I.getOperand(1)));
    // The divisor's adjoint scales the quotient (recomputed math) or the
    // dividend.
    if (IsActive(I.getOperand(1)))
      Needs.push_back(primalOf(RecomputesMath ? &I : I.getOperand(0)));
    return;
  case Instruction::FRem:
    if (IsActive(I.getOperand(1))) {
      Needs.push_back(primalOf(I.getOperand(0)));
      Needs.push_back(primalOf(I.getOperand(1)));
    }
    return;
  case Instruction::BitCast:
    if (auto *Load = dyn_cast<LoadInst>(I.getOperand(0)))
      if (IsActive(&I) && !isDifferentiableType(Load->getType()))
        Needs.push_back(shadowOf(Load->getPointerOperand()));
    return;
  case Instruction::ExtractElement:
    if (IsActive(&I))
      Needs.push_back(primalOf(I.getOperand(1)));
    return;
  case Instruction::InsertElement:
    if (IsActive(&I))
      Needs.push_back(primalOf(I.getOperand(2)));
    return;
  case Instruction::Select:
    if (IsActive(&I))
      Needs.push_back(primalOf(I.getOperand(0)));
    return;
  case Instruction::Load:
    if (IsActive(&I)) {
      Needs.push_back(shadowOf(cast<LoadInst>(I).getPointerOperand()));
      // The guard that decides whether its adjoint needs an atomic.
      if (LoopReads)
        if (Value *Guard = LoopReads->conditionOf(cast<LoadInst>(I)))
          Needs.push_back(primalOf(Guard));
    }
    return;
  case Instruction::Store: {
    auto &Store = cast<StoreInst>(I);
    switch (integerStoreRole(Store).What) {
    case IntegerStoreRole::MoveAdjoints:
      Needs.push_back(shadowOf(
          cast<LoadInst>(Store.getValueOperand())->getPointerOperand()));
      [[fallthrough]];
    case IntegerStoreRole::ClearAdjoints:
      Needs.push_back(shadowOf(Store.getPointerOperand()));
      return;
    case IntegerStoreRole::Untyped:
      Needs.push_back(shadowOf(Store.getPointerOperand()));
      return;
    case IntegerStoreRole::MirrorShadows:
    case IntegerStoreRole::ScratchShadows:
      return;
    case IntegerStoreRole::Inactive:
      break;
    }
    if (Activity.isShadowed(Store.getPointerOperand()) &&
        isDifferentiableType(Store.getValueOperand()->getType()))
      Needs.push_back(shadowOf(Store.getPointerOperand()));
    return;
  }
  case Instruction::Alloca:
    if (Activity.isShadowed(&I))
      Needs.push_back(shadowOf(&I));
    return;
  case Instruction::AtomicRMW: {
    // reverseAtomicAdd reads (and adds to) the adjoint at the address.
    auto &RMW = cast<AtomicRMWInst>(I);
    if (Activity.isShadowed(RMW.getPointerOperand()) && isAtomicFloatAdd(RMW) &&
        (IsActive(RMW.getValOperand()) || IsActive(&RMW)))
      Needs.push_back(shadowOf(RMW.getPointerOperand()));
    return;
  }
  default:
    break;
  }

  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return;
  switch (classifyCall(*Call)) {
  case CallKind::Inactive:
    return;
  case CallKind::VectorIntrinsic:
    collectVectorIntrinsicNeeds(*Call, *classifyVectorIntrinsic(*Call), Needs);
    return;
  case CallKind::WarpShuffle:
    // The reverse shuffles use the mask, offset or lane, and clamp.
    if (IsActive(Call))
      for (unsigned A : {0u, 2u, 3u})
        Needs.push_back(primalOf(Call->getArgOperand(A)));
    return;
  case CallKind::Deallocation:
    if (freesBlockAllocatedElsewhere(*Call))
      Needs.push_back(shadowOf(Call->getArgOperand(0)));
    return;
  case CallKind::MathRule: {
    if (!IsActive(Call))
      return;
    const rules::MathRule *Rule = rules::findMathRule(*Call);
    bool AnyActiveArg = false, NeedsResult = false;
    for (unsigned A = 0; A < Call->arg_size(); ++A) {
      if (!Rule->hasPartial(A) || !IsActive(Call->getArgOperand(A)))
        continue;
      AnyActiveArg = true;
      for (unsigned Part = 0; Part < Rule->resultParts(); ++Part)
        if (const std::optional<rules::Expr> &P = Rule->partial(Part, A))
          NeedsResult |= rules::mentionsResult(*P);
    }
    for (unsigned A = 0; A < Call->arg_size(); ++A)
      if (AnyActiveArg && partialsMentionArgument(*Call, A))
        Needs.push_back(primalOf(Call->getArgOperand(A)));
    if (NeedsResult)
      Needs.push_back(primalOf(Call));
    return;
  }
  case CallKind::Allocation:
    if (FreedAllocations.count(Call) && Activity.isShadowed(Call))
      Needs.push_back(shadowOf(Call));
    if (isReallocCall(*Call) && Activity.isShadowed(Call)) {
      Needs.push_back(shadowOf(Call));
      Needs.push_back(shadowOf(Call->getArgOperand(0)));
      Needs.push_back(primalOf(Call->getArgOperand(1)));
    }
    return;
  case CallKind::MemoryTransfer:
  case CallKind::MemorySet: {
    auto &Mem = cast<MemIntrinsic>(*Call);
    if (!Activity.isShadowed(Mem.getDest()))
      return;
    Needs.push_back(shadowOf(Mem.getDest()));
    Needs.push_back(primalOf(Mem.getLength()));
    if (auto *Transfer = dyn_cast<MemTransferInst>(&Mem))
      if (Activity.isShadowed(Transfer->getSource()))
        Needs.push_back(shadowOf(Transfer->getSource()));
    return;
  }
  case CallKind::Differentiated:
    // A call through a pointer dispatches on it in the reverse pass too.
    if (!Call->getCalledFunction())
      Needs.push_back(primalOf(Call->getCalledOperand()));
    for (Value *Arg : Call->args()) {
      Needs.push_back(primalOf(Arg));
      if (Activity.passesShadow(Arg))
        Needs.push_back(shadowOf(Arg));
    }
    return;
  }
}

bool FunctionDifferentiator::partialsMentionArgument(CallBase &Call,
                                                     unsigned Index) const {
  const rules::MathRule *Rule = rules::findMathRule(Call);
  for (unsigned A = 0; A < Call.arg_size(); ++A) {
    if (!Activity.isActive(Call.getArgOperand(A)))
      continue;
    for (unsigned Part = 0; Part < Rule->resultParts(); ++Part)
      if (const std::optional<rules::Expr> &P = Rule->partial(Part, A);
          P && rules::mentionsArgument(*P, Index))
        return true;
  }
  return false;
}

bool FunctionDifferentiator::checkUntypedCopyAtRunTime(
    Instruction &Copy, std::optional<uint64_t> Length) {
  if (!canLinkRuntime(*Prep.getParent()))
    return fail(&Copy, describeUntypedCopy(Length));
  UntypedCopies.insert(&Copy);
  return true;
}

FunctionDifferentiator::IntegerStoreRole
FunctionDifferentiator::classifyIntegerStore(StoreInst &Store,
                                             AccessIndex &Index) const {
  Value *Val = Store.getValueOperand();
  if (!Val->getType()->isIntegerTy() ||
      !Activity.isShadowed(Store.getPointerOperand()))
    return {};
  // An address with a shadow, stored as an integer: whatever the access
  // is tagged, shadow memory must mirror it for the loads that read it back
  // as a pointer.
  if (auto *Cast = dyn_cast<PtrToIntInst>(Val);
      Cast && Activity.isShadowed(Cast->getOperand(0)))
    return {IntegerStoreRole::MirrorShadows};
  // The same, moved or tagged by integer arithmetic (ShadowAddresses.h).
  if (const Value *Base = addressArithmeticBase(Val);
      Base && !isa<PtrToIntInst>(Val) && Activity.isShadowed(Base))
    return {IntegerStoreRole::MirrorShadows};
  // A tagged address (flags in its low bits) copied from shadowed memory:
  // the shadow's address, with the same flags, unless the bits are integers.
  if (LoadInst *Tagged = taggedBitsLoad(Val);
      Tagged && Tagged != Val &&
      Activity.isShadowed(Tagged->getPointerOperand())) {
    SmallVector<Instruction *, 2> Accesses = {&Store, Tagged};
    if (classifyIntegerAccess(Accesses, Sig.Fn, /*OnlyMoved=*/false, &Index)
            .What == IntegerAccessContents::Integers)
      return {};
    return {IntegerStoreRole::MirrorShadows};
  }
  auto *Load = dyn_cast<LoadInst>(Val);
  bool Copy = Load && Activity.isShadowed(Load->getPointerOperand());
  // Bits read from memory without derivatives: if they are addresses, code
  // that reads them back needs shadows for them.
  bool FromUnshadowed = Load && !Copy && canLinkRuntime(*Prep.getParent());
  SmallVector<Instruction *, 2> Accesses = {&Store};
  if (Copy || FromUnshadowed)
    Accesses.push_back(Load);
  // Bits computed here (a constant, integer arithmetic) carry no derivative
  // whatever they are: what matters is what the bytes held before, so the
  // value's own uses are no evidence.
  IntegerAccessContents Contents =
      classifyIntegerAccess(Accesses, Sig.Fn, /*OnlyMoved=*/!Copy, &Index);
  const DataLayout &DL = Prep.getDataLayout();
  uint64_t Size = DL.getTypeStoreSize(Val->getType());
  switch (Contents.What) {
  case IntegerAccessContents::Integers:
    return {};
  case IntegerAccessContents::Pointers:
    if (Copy || isa<Constant>(Val))
      return {IntegerStoreRole::MirrorShadows};
    if (FromUnshadowed)
      return {IntegerStoreRole::ScratchShadows};
    return {};
  case IntegerAccessContents::Unknown:
  case IntegerAccessContents::Floats:
    break;
  }
  // Overwritten: the adjoints of floats there end, which clearing their
  // shadow does; the shadow of integers is zero and stays so.
  if (!Copy)
    return {IntegerStoreRole::ClearAdjoints};
  // A copy moves the adjoints of the floats it copies, and nothing when the
  // bytes are integers: the type analysis must say which. A byte is too
  // small to be part of a float that moves whole.
  if (Size < 2)
    return {};
  Type *FloatTy = Contents.FloatTy;
  if (!FloatTy || Size % DL.getTypeStoreSize(FloatTy) != 0)
    return {IntegerStoreRole::Untyped};
  return {IntegerStoreRole::MoveAdjoints, FloatTy,
          unsigned(Size / DL.getTypeStoreSize(FloatTy))};
}

bool FunctionDifferentiator::isRecomputable(NeededValue V) {
  auto *I = dyn_cast<Instruction>(V.getPointer());
  if (!I)
    return false;
  if (V.getInt())
    return isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
           isa<AddrSpaceCastInst>(I) || shadowCounter(*I);
  switch (I->getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FNeg:
  case Instruction::ICmp:
  case Instruction::FCmp:
  case Instruction::Select:
  case Instruction::GetElementPtr:
  case Instruction::ExtractValue:
  case Instruction::Freeze:
    return true;
  case Instruction::Load: {
    auto &Load = cast<LoadInst>(*I);
    if (Sig.InputsKeptUntilReverse && Unmodified.isUnmodified(Load))
      return true;
    // `enzyme_nocache`: the caller keeps this argument's memory as it is.
    auto *Arg = dyn_cast<Argument>(
        getUnderlyingObject(Load.getPointerOperand(), /*MaxLookup=*/0));
    if (Arg && Arg->getArgNo() < Sig.KeptArgs.size() &&
        Sig.KeptArgs[Arg->getArgNo()] && Unmodified.isUnmodified(Load))
      return true;
    // A table the function fills and then only reads: keep the block until
    // the reverse pass instead of recording every value read from it.
    CallBase *Block = Unmodified.allocationUnmodifiedAfter(Load, DT, LI);
    if (!Block || !isComputedOnce(Block))
      return false;
    KeptAllocations.insert(Block);
    return true;
  }
  case Instruction::FDiv:
    return RecomputesMath;
  case Instruction::Call: {
    if (readsThreadPosition(*I))
      return true;
    // Pure math (sin, exp, sqrt...) where arithmetic is cheaper than the
    // memory that would record it.
    auto &Call = cast<CallBase>(*I);
    if (!RecomputesMath || !rules::findMathRule(Call))
      return false;
    if (Function *Callee = Call.getCalledFunction();
        Callee && isPureDeviceMath(*Callee))
      return true;
    return Call.doesNotAccessMemory() && !Call.mayHaveSideEffects();
  }
  default:
    return isa<CastInst>(I);
  }
}

const LoopCounter *
FunctionDifferentiator::shadowCounter(const Instruction &I) const {
  auto *Phi = dyn_cast<PHINode>(&I);
  if (!Phi || !Phi->getType()->isPointerTy())
    return nullptr;
  return Loops.counter(Phi);
}

bool FunctionDifferentiator::isComputedOnce(Instruction *I) const {
  BasicBlock *BB = I->getParent();
  return ExitBlock && !LI.getLoopFor(BB) && DT.dominates(BB, ExitBlock);
}

void FunctionDifferentiator::resolve(NeededValue V, BasicBlock *UseBlock,
                                     unsigned Depth) {
  Value *Val = V.getPointer();
  if (isa<BasicBlock>(Val)) {
    Batches[UseBlock].insert(V);
    return;
  }
  auto *I = dyn_cast<Instruction>(Val);
  if (!I)
    return; // Arguments and constants are always available.
  if (isRecomputable(V) &&
      Depth < (RecomputesMath ? MaxGpuRecomputeDepth : MaxRecomputeDepth)) {
    if (Recomputed[UseBlock].count(V))
      return;
    if (const LoopCounter *C = V.getInt() ? shadowCounter(*I) : nullptr) {
      resolve(primalOf(C->Phi), UseBlock, Depth + 1);
      resolve(primalOf(C->Start), UseBlock, Depth + 1);
      resolve(shadowOf(C->Start), UseBlock, Depth + 1);
      Recomputed[UseBlock].insert(V);
      return;
    }
    for (unsigned Op = 0; Op < I->getNumOperands(); ++Op) {
      bool ShadowOperand = V.getInt() && Op == 0;
      resolve(NeededValue(I->getOperand(Op), ShadowOperand), UseBlock,
              Depth + 1);
    }
    Recomputed[UseBlock].insert(V);
    return;
  }
  if (isComputedOnce(I)) {
    ExitBatch.insert(V);
    return;
  }
  // A loop counter steps back in the reverse of its loop.
  const ReversibleLoop *RL = nullptr;
  if (auto *Phi = dyn_cast<PHINode>(I); Phi && !V.getInt())
    if (Loops.counter(Phi, &RL) && RL->L->contains(UseBlock)) {
      // It starts from its last value: computed when the reverse pass
      // enters the loop if scalar evolution knows it, else pushed.
      if (!planCounterFinal(*Phi, *RL, Depth))
        LoopExitValues[RL].insert(V);
      SlotReads[UseBlock].insert(V);
      return;
    }
  // A value from before a loop is pushed once, when the loop exits.
  if ((RL = Loops.outermostEnteredAfter(I->getParent(), UseBlock)))
    return keepInLoopSlot(V, *RL, UseBlock);
  Batches[UseBlock].insert(V);
}

void FunctionDifferentiator::keepInLoopSlot(NeededValue V,
                                            const ReversibleLoop &RL,
                                            BasicBlock *UseBlock) {
  LoopExitValues[&RL].insert(V);
  SlotReads[UseBlock].insert(V);
}

bool FunctionDifferentiator::planCounterFinal(PHINode &Counter,
                                              const ReversibleLoop &RL,
                                              unsigned Depth) {
  auto &Finals = CounterFinals[&RL];
  if (Finals.count(&Counter))
    return true;
  SmallVector<Value *, 4> Leaves;
  const SCEV *Final = counterFinalValue(Counter, *RL.L, SE, Leaves);
  if (!Final)
    return false;
  // Only when the reverse pass has every leaf for free there: arguments,
  // constants, and counters of loops around the exit (kept in slots).
  for (BasicBlock *Exit : RL.ExitBlocks)
    for (Value *Leaf : Leaves) {
      if (isa<Constant>(Leaf) || isa<Argument>(Leaf))
        continue;
      const ReversibleLoop *Outer = nullptr;
      auto *Phi = dyn_cast<PHINode>(Leaf);
      if (!Phi || !Loops.counter(Phi, &Outer) || !Outer->L->contains(Exit))
        return false;
    }
  Finals[&Counter] = Final;
  for (BasicBlock *Exit : RL.ExitBlocks)
    for (Value *Leaf : Leaves)
      resolve(primalOf(Leaf), Exit, Depth + 1);
  return true;
}

SmallVector<NeededValue, 4>
FunctionDifferentiator::loopExitPushes(BasicBlock *BB) const {
  SmallVector<NeededValue, 4> Values;
  for (const auto &[RL, Exiting] : LoopExitValues)
    if (is_contained(RL->ExitBlocks, BB))
      Values.append(Exiting.begin(), Exiting.end());
  return Values;
}

/// Whether the reverse of \p I is empty: it carries no derivative, writes
/// nothing and calls nothing.
static bool hasEmptyReverse(const Instruction &I,
                            const ActivityAnalysis &Activity) {
  if (Activity.isActive(&I))
    return false;
  if (isa<PHINode>(I) || isa<BinaryOperator>(I) || isa<UnaryOperator>(I) ||
      isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<GetElementPtrInst>(I) || isa<ExtractValueInst>(I) ||
      isa<FreezeInst>(I) || isa<BranchInst>(I) || isa<SwitchInst>(I))
    return true;
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isSimple();
  if (auto *Intrinsic = dyn_cast<IntrinsicInst>(&I))
    return Intrinsic->isAssumeLikeIntrinsic();
  return false;
}

void FunctionDifferentiator::findSkippedLoops() {
  SmallVector<Loop *, 8> Worklist(LI.begin(), LI.end());
  while (!Worklist.empty()) {
    Loop *L = Worklist.pop_back_val();
    bool Empty =
        L->getLoopPreheader() && all_of(L->blocks(), [&](const BasicBlock *BB) {
          return all_of(*BB, [&](const Instruction &I) {
            return hasEmptyReverse(I, Activity);
          });
        });
    if (Empty)
      SkippedLoops.insert(L);
    else
      append_range(Worklist, L->getSubLoops());
  }
}

const Loop *FunctionDifferentiator::skippedLoopOf(const BasicBlock *BB) const {
  for (const Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
    if (SkippedLoops.count(L))
      return L;
  return nullptr;
}

bool FunctionDifferentiator::plan() {
  // Device code whose blocks communicate: the reverse pass would need the
  // communication mirrored, in the opposite direction.
  if (isGpuModule(*Prep.getParent()))
    for (Instruction &I : instructions(Prep))
      if (std::string What = describeCrossBlockOrdering(I); !What.empty())
        return fail(&I,
                    "cannot differentiate " + What +
                        " in reverse mode: it orders memory between the "
                        "blocks of a launch, and the reverse pass runs the "
                        "blocks' derivatives without that order (the "
                        "adjoints one block hands another would race); "
                        "split the kernel where its blocks communicate into "
                        "kernels launched one after the other, or give the "
                        "function that communicates a custom derivative");
  findSkippedLoops();
  for (Instruction &I : instructions(Prep)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || classifyCall(*Call) != CallKind::Deallocation)
      continue;
    if (auto *Alloc =
            dyn_cast<Instruction>(Call->getArgOperand(0)->stripPointerCasts()))
      FreedAllocations[Alloc] = Call;
  }
  // realloc frees the allocation it grows.
  for (Instruction &I : instructions(Prep))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && isReallocCall(*Call))
      if (auto *Old = dyn_cast<Instruction>(
              Call->getArgOperand(0)->stripPointerCasts()))
        FreedAllocations[Old] = Call;

  // The plan only reads IR: the accesses of the functions it searches are
  // filed once for all its questions.
  AccessIndex Index;
  SmallVector<NeededValue, 8> Needs;
  for (BasicBlock &BB : Prep) {
    if (skippedLoopOf(&BB))
      continue;
    // The reverse of a block with several predecessors must know which one
    // the forward pass came from.
    if (hasMultiplePredecessors(&BB)) {
      // A counter that cannot wrap tells the first iteration of a loop
      // from the others; any other join records where it came from.
      const ReversibleLoop *RL = Loops.headedBy(&BB);
      if (const LoopCounter *C = RL ? RL->firstIterationCounter() : nullptr) {
        resolve(primalOf(C->Phi), &BB);
        resolve(primalOf(C->Start), &BB);
      } else if (auto Join = findDecidingBranch(&BB, DT)) {
        // A branch whose condition the reverse pass knows decides it.
        DecidedJoins[&BB] = *Join;
        resolve(primalOf(Join->Condition), &BB);
      } else {
        resolve(NeededValue(&BB, false), &BB);
      }
    }
    for (Instruction &I : BB) {
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        CallKind Kind = classifyCall(*Call);
        Function *Callee = Call->getCalledFunction();
        bool Custom = Callee && Gen.registrations() &&
                      Gen.registrations()->gradientOf(Callee);
        // A call through a pointer dispatches (IndirectCalls.cpp).
        bool Indirect = !Callee && !Call->isInlineAsm();
        // Nothing of what an unsupported OpenMP construct does is seen.
        if (std::string Why = describeUnsupportedOpenMPCall(*Call);
            !Why.empty())
          return fail(Call, Why);
        // An MPI call that carries derivatives needs its rule to apply.
        if (Kind == CallKind::Differentiated)
          for (std::string Why : {describeUnsupportedMpiCall(*Call),
                                  describeUnsupportedKokkosCall(*Call)})
            if (!Why.empty())
              return fail(Call, Why);
        if (Kind == CallKind::Differentiated && !Custom && !Indirect) {
          if (Call->isInlineAsm())
            return fail(Call, "cannot differentiate inline assembly whose "
                              "result or memory output carries a derivative");
          if (Callee && Callee->isIntrinsic())
            return fail(Call, "no derivative rule for the intrinsic '" +
                                  Callee->getName() + "'");
          if (Callee->isDeclaration() &&
              Callee->getName().contains("__enzyme_"))
            return fail(Call, "cannot differentiate a request ('" +
                                  displayName(Callee->getName()) +
                                  "') that could not be served before the "
                                  "one around it (it is inside its own code, "
                                  "or reached through a function pointer); "
                                  "call the inner derivative directly from "
                                  "the function being differentiated");
          // A kernel launch whose kernel has no derivative kernels
          // (Core/KernelLaunches.h): the stub, or what it does once inlined.
          if (std::optional<std::string> Message =
                  launchWithoutDerivativeKernels(*Call, /*Forward=*/false))
            return fail(Call, *Message);
          if (std::optional<std::string> Message =
                  launchOfKernelDefinedElsewhere(*Call))
            return fail(Call, *Message, /*MissingDefinition=*/true);
          if (std::optional<std::string> Message = cudaGraphCall(*Call))
            return fail(Call, *Message);
          if (Callee->isDeclaration())
            return fail(Call,
                        "cannot differentiate a call to '" +
                            displayName(Callee->getName()) +
                            "': it has no definition in this module and no "
                            "derivative rule",
                        /*MissingDefinition=*/true);
          if (Callee->isVarArg())
            return fail(Call, "cannot differentiate a call to the variadic "
                              "function '" +
                                  displayName(Callee->getName()) + "'");
        }
      }
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        // A call that moves derivatives between its pointer arguments
        // (a copy, a custom gradient) where one of them has no shadow
        // because it is an address computed from an integer (a local that
        // AddressSanitizer moved into its frame), or a pointer loaded from
        // one: what it moves there would be lost.
        if (classifyCall(*Call) != CallKind::Inactive &&
            any_of(Call->args(), [&](const Use &U) {
              return U->getType()->isPointerTy() && Activity.isShadowed(U);
            }))
          for (const Use &U : Call->args())
            if (U->getType()->isPointerTy() && !Activity.isShadowed(U))
              if (std::string Why = describeAddressFromInteger(*U);
                  !Why.empty())
                return fail(Call, Why);
        if (classifyWarpShuffle(*Call) && Activity.isActive(Call))
          if (std::string Why = describeUndifferentiableShuffle(*Call);
              !Why.empty())
            return fail(Call, Why);
        if (Value * Bits;
            shufflesFloatBits(*Call, Bits) && Activity.carriesFloatBits(*Bits))
          return fail(Call, UnseenShuffleOfFloatBits);
      }
      // The reverse pass has no adjoint for atomics (it dropped them).
      if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
        Value *Ptr = isa<AtomicRMWInst>(I)
                         ? cast<AtomicRMWInst>(I).getPointerOperand()
                         : cast<AtomicCmpXchgInst>(I).getPointerOperand();
        if (std::string Why = describeAtomicWithDerivative(
                I, Activity.isShadowed(Ptr),
                Activity.isActive(&I) || Activity.isShadowed(&I));
            !Why.empty())
          return fail(&I, Why);
      }
      if (auto *Mem = dyn_cast<MemTransferInst>(&I);
          Mem && !Activity.isShadowed(Mem->getDest()) &&
          Activity.isShadowed(Mem->getSource()))
        if (std::string Why = describeCopyWithoutShadow(*Mem, Prep, Sig.Fn);
            !Why.empty())
          return fail(Mem, Why);
      if (auto *Mem = dyn_cast<MemTransferInst>(&I);
          Mem && Activity.isShadowed(Mem->getDest()) &&
          Activity.isShadowed(Mem->getSource())) {
        std::optional<uint64_t> Length;
        if (auto *C = dyn_cast<ConstantInt>(Mem->getLength()))
          Length = C->getZExtValue();
        CopyLayout Layout =
            analyzeCopyLayout(Mem->getDest(), Mem->getSource(), Prep, Sig.Fn,
                              Length, Mem, &Index);
        // The type of the floats moved: the copy's own tag or its objects'
        // accesses first, then the accesses of the bytes elsewhere (a
        // std::complex<long double> copied at -O0 is read as x86_fp80 in
        // the callees). Without floats or pointers, only a proof that the
        // bytes are integers lets the copy move no derivative.
        Layout.FloatTy =
            inferFloatElementType(Mem->getDest(), Mem->getSource(), Mem);
        if (!Layout.FloatTy)
          Layout.FloatTy = uniformFloatType(Layout);
        if (!Layout.HasPointers && !Layout.FloatTy &&
            !copiesOnlyIntegers(Layout, Length, Prep.getDataLayout()) &&
            !checkUntypedCopyAtRunTime(*Mem, Length))
          return false;
        // Pointers beside floats, a length known at run time only: element
        // by element, as the type the program indexes the elements with
        // lays them out.
        if (Layout.HasPointers && Layout.HasFloats && !Length) {
          std::optional<CopyRecord> Record = copyRecordOf(
              Layout, std::nullopt,
              copiedElementType(Mem->getDest(), Mem->getSource(), Sig.Fn),
              std::nullopt, Prep.getDataLayout());
          if (!Record ||
              !recordHoldsMovedValues(*Record, Layout, Prep.getDataLayout()))
            return fail(Mem, "cannot differentiate a copy of memory holding "
                             "both pointers and floating-point values whose "
                             "size is not a compile-time constant and whose "
                             "elements' type the program does not index the "
                             "memory with");
          ElementRecords[Mem] = std::move(*Record);
        }
        CopyLayouts[Mem] = std::move(Layout);
      }
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        IntegerStoreRole Role = classifyIntegerStore(*Store, Index);
        if (Role.What == IntegerStoreRole::Untyped &&
            !checkUntypedCopyAtRunTime(
                *Store, Prep.getDataLayout().getTypeStoreSize(
                            Store->getValueOperand()->getType())))
          return false;
        if (Role.What != IntegerStoreRole::Inactive)
          IntegerStoreRoles[Store] = Role;
        Value *Ptr = Store->getPointerOperand();
        if (Activity.isActive(Store->getValueOperand()) &&
            !Activity.isShadowed(Ptr)) {
          if (std::string Why = describeDerivativeStoredWithoutShadow(*Ptr);
              !Why.empty())
            return fail(Store, Why);
        }
      }
      Needs.clear();
      collectNeeds(I, Needs);
      for (NeededValue V : Needs)
        resolve(V, &BB);
    }
  }
  // The reverse of a kept block's allocation frees it.
  for (CallBase *Block : KeptAllocations)
    resolve(NeededValue(Block, false), Block->getParent());
  return true;
}

} // namespace enzyme
