//===- PreparedFunction.cpp - The copy of a function that AD reads --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/PreparedFunction.h"

#include "Analysis/MemoryTypes.h"
#include "Modes/InlineAsmLowering.h"
#include "Modes/KokkosTileLoops.h"
#include "Modes/TargetIntrinsicLowering.h"

#include "Core/CompileTimeBodies.h"
#include "Core/Diagnostics.h"
#include "Core/OpenMPRuntime.h"
#include "Core/ShadowScopes.h"
#include "Modes/AtomicUpdateLoops.h"
#include "Modes/ExceptionGuards.h"
#include "Modes/FloatBitFields.h"
#include "Modes/FloatBitWebs.h"
#include "Modes/FloatSignMasks.h"
#include "Modes/HalfPrecisionHelpers.h"
#include "Modes/LibraryRewrites.h"
#include "Modes/MagicRounding.h"
#include "Modes/PackedFloatLanes.h"
#include "Modes/TaggedPointerWebs.h"
#include "Modes/WarpShuffles.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

namespace enzyme {

void copyCodegenAttributes(const Function &From, Function &To) {
  for (const Attribute &A : From.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      To.addFnAttr(A);
  if (From.hasFnAttribute(Attribute::UWTable))
    To.addFnAttr(From.getFnAttribute(Attribute::UWTable));
  To.addFnAttr(Attribute::NoUnwind);
}

const Instruction *findScalableVectorUse(const Function &F) {
  auto IsScalable = [](const Type *Ty) { return isa<ScalableVectorType>(Ty); };
  for (const Instruction &I : instructions(F))
    if (IsScalable(I.getType()) || any_of(I.operands(), [&](const Use &U) {
          return IsScalable(U->getType());
        }))
      return &I;
  return nullptr;
}

/// A struct passed by value is the callee's own copy, which the caller
/// makes as part of the call. The copy is made explicit (an alloca and a
/// memcpy before the call), so that derivatives follow it like any copy
/// and the functions the engine generates take plain pointers.
static void copyByValueArguments(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    for (unsigned A = 0; A < Call->arg_size(); ++A) {
      if (!Call->isByValArgument(A))
        continue;
      Type *Ty = Call->getParamByValType(A);
      Align Alignment = Call->getParamAlign(A).value_or(DL.getABITypeAlign(Ty));
      AllocaInst *Copy = Entry.CreateAlloca(Ty, nullptr, "byval.copy");
      Copy->setAlignment(Alignment);
      IRBuilder<> B(Call);
      B.CreateMemCpy(Copy, Alignment, Call->getArgOperand(A), Alignment,
                     DL.getTypeAllocSize(Ty));
      Call->setArgOperand(A, Copy);
    }
  }
}

/// \p Call returns its argument \p ArgNo and writes nothing but its own
/// locals: std::move, std::forward and accessors returning `*this`, real
/// calls at -O0.
static bool passesArgumentThrough(const CallBase &Call, unsigned ArgNo) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || ArgNo >= Callee->arg_size() ||
      !Call.getType()->isPointerTy())
    return false;
  const Argument *Param = Callee->getArg(ArgNo);
  for (const Instruction &I : instructions(*Callee)) {
    if (isa<AllocaInst>(I) || isa<LoadInst>(I) || isa<GetElementPtrInst>(I) ||
        isa<CastInst>(I) || isa<DbgInfoIntrinsic>(I) ||
        (isa<IntrinsicInst>(I) &&
         cast<IntrinsicInst>(I).isLifetimeStartOrEnd()))
      continue;
    if (const auto *Store = dyn_cast<StoreInst>(&I)) {
      if (!isa<AllocaInst>(getUnderlyingObject(Store->getPointerOperand())))
        return false;
      continue;
    }
    const auto *Ret = dyn_cast<ReturnInst>(&I);
    if (!Ret || !Ret->getReturnValue() ||
        forwardedSource(Ret->getReturnValue()) != Param)
      return false;
  }
  return true;
}

/// \p Ptr, or an address computed from it, may be written: stored through,
/// the destination of a memory intrinsic, passed to a call that may write
/// it, or used in a way this walk does not follow.
static bool mayBeWrittenThrough(const Value &Ptr) {
  SmallVector<const Value *, 8> Addresses = {&Ptr};
  SmallPtrSet<const Value *, 8> Seen = {&Ptr};
  auto Follow = [&](const Value *Address) {
    if (Seen.insert(Address).second)
      Addresses.push_back(Address);
  };
  while (!Addresses.empty()) {
    const Value *Address = Addresses.pop_back_val();
    for (const Use &U : Address->uses()) {
      const User *Usr = U.getUser();
      if (isa<LoadInst>(Usr) || isa<ICmpInst>(Usr))
        continue;
      if (isa<GetElementPtrInst>(Usr) || isa<BitCastInst>(Usr)) {
        Follow(Usr);
        continue;
      }
      // Kept in a local that is only read back (a variable at -O0): the
      // loads are the address.
      if (const auto *Store = dyn_cast<StoreInst>(Usr);
          Store && U.getOperandNo() == 0) {
        if (const AllocaInst *Slot =
                singleStoreSlot(Store->getPointerOperand())) {
          for (const User *SlotUser : Slot->users())
            if (isa<LoadInst>(SlotUser))
              Follow(SlotUser);
          continue;
        }
      }
      if (const auto *Call = dyn_cast<CallBase>(Usr);
          Call && Call->isArgOperand(&U)) {
        unsigned ArgNo = Call->getArgOperandNo(&U);
        // The address comes back from the call (std::move at -O0).
        if (passesArgumentThrough(*Call, ArgNo)) {
          Follow(Call);
          continue;
        }
        // A call that keeps the address could let a later write through it.
        if ((Call->onlyReadsMemory(ArgNo) && Call->doesNotCapture(ArgNo)) ||
            (isa<MemTransferInst>(Call) && ArgNo == 1))
          continue;
      }
      return true;
    }
  }
  return false;
}

/// Every use of \p Local is a lifetime marker or satisfies \p Access.
static bool onlyUsedBy(const AllocaInst &Local,
                       function_ref<bool(const Use &)> Access) {
  return all_of(Local.uses(), [&](const Use &U) {
    return cast<Instruction>(U.getUser())->isLifetimeStartOrEnd() || Access(U);
  });
}

static bool isWrite(const Use &U) {
  if (const auto *Store = dyn_cast<StoreInst>(U.getUser()))
    return U.getOperandNo() == Store->getPointerOperandIndex();
  const auto *Mem = dyn_cast<MemIntrinsic>(U.getUser());
  return Mem && !Mem->isVolatile() && U.getOperandNo() == 0;
}

static bool isRead(const Use &U) {
  if (const auto *Load = dyn_cast<LoadInst>(U.getUser()))
    return !Load->isVolatile();
  const auto *Copy = dyn_cast<MemTransferInst>(U.getUser());
  return Copy && !Copy->isVolatile() && U.getOperandNo() == 1;
}

/// Deletes the copies that move nothing: into a local that nothing reads,
/// or out of one that nothing writes (its bytes are undefined). SROA
/// leaves the padding between the fields of a struct that unoptimised code
/// copies as such copies of a few bytes; no access types those bytes, and
/// the reverse pass could not tell whether the copies move derivatives.
static void removeCopiesOfNothing(Function &F) {
  SmallVector<AllocaInst *, 16> Locals;
  for (Instruction &I : F.getEntryBlock())
    if (auto *Local = dyn_cast<AllocaInst>(&I))
      Locals.push_back(Local);
  // Deleting a copy out of one local may leave the other end unread.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (AllocaInst *&Local : Locals) {
      if (!Local)
        continue;
      if (onlyUsedBy(*Local, isRead)) {
        SmallVector<Instruction *, 4> Copies;
        for (User *U : Local->users())
          if (isa<MemTransferInst>(U))
            Copies.push_back(cast<Instruction>(U));
        for (Instruction *Copy : Copies)
          Copy->eraseFromParent();
        Changed |= !Copies.empty();
      }
      if (!onlyUsedBy(*Local, isWrite))
        continue;
      while (!Local->use_empty())
        cast<Instruction>(Local->use_begin()->getUser())->eraseFromParent();
      Local->eraseFromParent();
      Local = nullptr;
      Changed = true;
    }
  }
}

/// A parameter passed by value is this function's own copy, which it may
/// write and read back. Passed as enzyme_const it has no shadow, and what
/// carries a derivative through the copy would be lost: the writes go to a
/// local copy instead (a local has a shadow; SROA usually removes it).
static void copyWrittenByValueParameters(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  for (Argument &Arg : F.args()) {
    if (!Arg.hasByValAttr() || !mayBeWrittenThrough(Arg))
      continue;
    Type *Ty = Arg.getParamByValType();
    Align Alignment = Arg.getParamAlign().value_or(DL.getABITypeAlign(Ty));
    AllocaInst *Copy = Entry.CreateAlloca(Ty, nullptr, "byval.own");
    Copy->setAlignment(Alignment);
    Arg.replaceAllUsesWith(Copy);
    Entry.CreateMemCpy(Copy, Alignment, &Arg, Alignment,
                       DL.getTypeAllocSize(Ty));
  }
}

/// The loop hints of unoptimised code (`#pragma unroll` at -O0) were never
/// going to be honoured. The engine's copies are not `optnone`, so passes
/// that still run on them (a fat LTO object's pipeline) would try the hints
/// and warn that they could not: the copies drop them.
static void dropLoopTransformationHints(Function &F) {
  static const StringRef HintPrefixes[] = {
      "llvm.loop.unroll.",     "llvm.loop.unroll_and_jam.",
      "llvm.loop.vectorize.",  "llvm.loop.interleave.",
      "llvm.loop.distribute.", "llvm.loop.licm_versioning."};
  LLVMContext &Context = F.getContext();
  for (BasicBlock &BB : F) {
    Instruction *Latch = BB.getTerminator();
    MDNode *LoopID = Latch ? Latch->getMetadata(LLVMContext::MD_loop) : nullptr;
    if (!LoopID)
      continue;
    Latch->setMetadata(LLVMContext::MD_loop, makePostTransformationMetadata(
                                                 Context, LoopID, HintPrefixes,
                                                 /*AddAttrs=*/{}));
  }
}

Function *prepareForDifferentiation(Function &F, FunctionAnalysisManager &FAM,
                                    PossibleTargetsFn PossibleTargets) {
  // At the link, the body as the compile-time run saw it, before
  // vectorisation and instrumentation (CompileTimeBodies.h).
  ValueToValueMapTy VMap;
  Function *P =
      CloneFunction(const_cast<Function *>(&bodyToDifferentiate(F)), VMap);
  P->setName(F.getName() + ".enzyme.prep");
  P->setLinkage(GlobalValue::InternalLinkage);
  // The copy may sit where a function the analysis manager still has
  // results for was freed: they are not this copy's.
  FAM.clear(*P, P->getName());
  if (P->hasFnAttribute(Attribute::OptimizeNone))
    dropLoopTransformationHints(*P);
  P->removeFnAttr(Attribute::OptimizeNone);
  P->removeFnAttr(Attribute::NoInline);

  // Exceptions are not differentiated: the path on which no call throws is,
  // and a call that does throw while the derivative runs is reported
  // (ExceptionGuards.h). Landing pads become unreachable.
  for (BasicBlock &BB : *P)
    if (auto *Invoke = dyn_cast<InvokeInst>(BB.getTerminator()))
      changeToCall(Invoke);
  // A call of an alias (a C++ complete-object constructor that clang emits
  // as an alias of the base-object one) calls the function it names.
  for (Instruction &I : instructions(*P))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (auto *Alias = dyn_cast<GlobalAlias>(Call->getCalledOperand()))
        if (auto *Aliasee = dyn_cast<Function>(Alias->getAliaseeObject());
            Aliasee && !Alias->isInterposable() &&
            Aliasee->getFunctionType() == Call->getFunctionType())
          Call->setCalledFunction(Aliasee);
  // The tiles of a Kokkos MDRange policy beside the loop over them, their
  // points marked (KokkosTileLoops.h).
  inlineKokkosTiles(*P);
  // What library calls write through pointers becomes stores
  // (LibraryRewrites.h).
  rewriteLibraryCalls(*P);
  // Forks become region functions, reductions critical sections
  // (OpenMPRuntime.h).
  lowerOpenMPRuntimeCalls(*P);
  // CUDA's half-precision helpers, as optimised code has them
  // (HalfPrecisionHelpers.h), before their assembly is read.
  inlineHalfPrecisionHelpers(*P);
  // Optimisation barriers and single x86 instructions written as assembly
  // (InlineAsmLowering.h).
  lowerKnownInlineAsm(*P);
  copyByValueArguments(*P);
  copyWrittenByValueParameters(*P);

  // The engine differentiates SSA form: promote locals (all of them at -O0)
  // and drop what can never run. What typed addresses say about memory is
  // kept for the type analysis first: simplification folds them.
  recordDeclaredObjects(*P);
  FunctionPassManager FPM;
  // UndefinedBehaviorSanitizer's checks compare locals' addresses with
  // null before each memcpy (-fsanitize=nonnull-attribute), which would
  // keep SROA from promoting them: such a comparison is folded first. (The
  // bits of a float manipulated as an integer in memory lost their
  // derivative without a word: runtime/copysign-by-bits.c with
  // -fsanitize=undefined.)
  FPM.addPass(InstSimplifyPass());
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.run(*P, FAM);
  removeUnreachableBlocks(*P);
  // Unoptimised code (CUB's generic shuffles at -O0) moves a value's words
  // through memory in a loop over them, indexed by the loop's counter: with
  // the loop unrolled, the words are at known offsets, SROA takes them out
  // of memory, and the shuffles move the value's halves or bits, which the
  // rules read (raiseDoubleShuffles). Optimised code has done this already.
  if (shufflesWordsOfMemory(*P)) {
    FunctionPassManager Unroll;
    Unroll.addPass(LoopUnrollPass(LoopUnrollOptions(/*OptLevel=*/2)
                                      .setPartial(false)
                                      .setRuntime(false)
                                      .setUpperBound(false)));
    Unroll.addPass(SROAPass(SROAOptions::ModifyCFG));
    Unroll.addPass(EarlyCSEPass());
    Unroll.addPass(SimplifyCFGPass());
    Unroll.run(*P, FAM);
    removeUnreachableBlocks(*P);
  }
  removeCopiesOfNothing(*P);
  // Atomic additions written as compare-and-swap loops on a float's bits
  // (AtomicUpdateLoops.h).
  raiseAtomicUpdateLoops(*P);
  // Floats rounded by adding and subtracting a large constant
  // (MagicRounding.h).
  markMagicRounding(*P);
  markKokkosTilePoints(*P);
  hoistInvariantSharedLoads(*P);
  joinSplitHalves(*P);
  raiseDoubleShuffles(*P);
  foldFloatSignMasks(*P);
  rewriteFloatBitFields(*P);
  moveVectorLanesAsFloats(*P);
  // Structs of a float and an integer that the ABI packs into an i64: the
  // floats of this function's packed parameters, and those it passes or
  // gets back from calls, go as floats (PackedFloatLanes.h).
  foldAssembledLanes(*P);
  unpackFloatLanesAtCalls(*P, PossibleTargets);
  retypeFloatBitWebs(*P, &F);
  storeFloatBitsAsFloats(*P);
  loadFloatBitsAsFloats(*P);
  retypeTaggedPointerWebs(*P);
  lowerTargetVectorIntrinsics(*P);

  // One return block, so the reverse pass has one place to start.
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : *P)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  if (Returns.size() > 1) {
    LLVMContext &Ctx = F.getContext();
    auto *Exit = BasicBlock::Create(Ctx, "common.ret", P);
    PHINode *Phi = nullptr;
    if (!P->getReturnType()->isVoidTy())
      Phi = PHINode::Create(P->getReturnType(), Returns.size(), "retval", Exit);
    for (ReturnInst *Ret : Returns) {
      if (Phi)
        Phi->addIncoming(Ret->getReturnValue(), Ret->getParent());
      BranchInst::Create(Exit, Ret->getParent());
      Ret->eraseFromParent();
    }
    ReturnInst::Create(Ctx, Phi, Exit);
  }
  // Preheaders, single latches and dedicated exits let the reverse pass run
  // loops backwards without recording every iteration (ReversibleLoops.h).
  FAM.invalidate(*P, PreservedAnalyses::none());
  FunctionPassManager Loops;
  Loops.addPass(LoopSimplifyPass());
  Loops.run(*P, FAM);
  FAM.invalidate(*P, PreservedAnalyses::none());
  return P;
}

void discardFunction(Function *F, FunctionAnalysisManager &FAM) {
  FAM.clear(*F, F->getName());
  F->dropAllReferences();
  F->eraseFromParent();
}

void finishGeneratedFunction(Function &F, const Function &Primal,
                             ArrayRef<Activity> Activities,
                             FunctionAnalysisManager &FAM,
                             FunctionPassManager *Cleanup) {
  forgetDeclaredObjects(F);
  guardCallsThatMayThrow(F, Primal);
  // What follows the shadows (a tape, adjoints) is neither side.
  SmallVector<bool, 8> IsShadowArg(Primal.arg_size(), false);
  for (Activity A : Activities)
    if (hasShadow(A))
      IsShadowArg.push_back(true);
  markShadowDisjointFromPrimal(F, IsShadowArg);
  FAM.invalidate(F, PreservedAnalyses::none());
  if (Cleanup) {
    Cleanup->run(F, FAM);
    return;
  }
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(SimplifyCFGPass());
  FPM.run(F, FAM);
}

Function *inactiveDeclarationBody(Function &F) {
  if (!F.isDeclaration() || F.isIntrinsic() ||
      !F.hasFnAttribute("enzyme_inactive"))
    return nullptr;
  std::string Name = (F.getName() + ".enzyme.inactive").str();
  Module &M = *F.getParent();
  if (Function *Body = M.getFunction(Name))
    return Body;
  Function *Body = Function::Create(F.getFunctionType(),
                                    GlobalValue::InternalLinkage, Name, M);
  Body->setAttributes(F.getAttributes());
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", Body));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Body->args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&F, Args);
  Call->setAttributes(F.getAttributes());
  if (Call->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Body;
}

bool checkPreparable(const Function &F, DifferentiationFailure &Failure) {
  if (F.isDeclaration()) {
    Failure.Message = "cannot differentiate '" + displayName(F.getName()) +
                      "': it has no definition in this module and no "
                      "derivative rule";
    Failure.MissingDefinition = true;
    return false;
  }
  if (const Instruction *I = findScalableVectorUse(bodyToDifferentiate(F))) {
    Failure.Message = "'" + displayName(F.getName()) +
                      "' uses scalable vectors, which the engine does not "
                      "support";
    Failure.HasOffending = true;
    Failure.OffendingLocation = describeLocation(I->getDebugLoc());
    return false;
  }
  return true;
}

} // namespace enzyme
