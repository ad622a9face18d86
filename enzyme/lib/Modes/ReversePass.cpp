//===- ReversePass.cpp - The reverse half of reverse mode -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse function visits the prepared function's blocks backwards. Its
/// entry pops what was pushed once at the exit and jumps to the reverse of
/// the exit block. Each reverse block pops its batch, rebuilds what it
/// recomputes, accumulates the adjoints of the block's instructions in
/// reverse order, then moves the adjoints of phis to the incoming values of
/// the edge the forward pass took and branches to the reverse of that
/// predecessor. The reverse of the entry block returns the gradients.
///
/// Adjoints live in stack slots (promoted to registers by the cleanup), one
/// per active value, created in the entry block so that every path sees
/// them zero-initialised.
///
//===----------------------------------------------------------------------===//

#include "Modes/FunctionDifferentiator.h"
#include "Modes/RecordCopies.h"
#include "Modes/UntypedCopyGuards.h"

#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Analysis/TripCount.h"
#include "Core/GlobalShadows.h"
#include "Core/GpuTarget.h"
#include "Core/LibcCalls.h"
#include "Core/MpiRuntime.h"
#include "Core/OpenMPRuntime.h"
#include "Core/ReusableFunctions.h"
#include "Core/ShadowMemory.h"
#include "Modes/SharedAdjoints.h"
#include "Modes/WarpShuffles.h"
#include "Rules/MathRules.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// The additive identity of adjoints: -0.0, because x + -0.0 is x for
/// every x (x + 0.0 is not, for x = -0.0), so accumulating into a fresh slot
/// folds away. Non-floating parts are zero.
Constant *zeroAdjoint(Type *Ty) {
  if (Ty->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(Ty);
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    SmallVector<Constant *, 4> Fields;
    for (Type *Elt : ST->elements())
      Fields.push_back(zeroAdjoint(Elt));
    return ConstantStruct::get(ST, Fields);
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return ConstantArray::get(
        AT, SmallVector<Constant *, 8>(AT->getNumElements(),
                                       zeroAdjoint(AT->getElementType())));
  return Constant::getNullValue(Ty);
}

/// Memory of an alloca or an allocation call of this function.
static bool isFunctionLocalMemory(Value *Ptr) {
  Value *Object = getUnderlyingObject(Ptr, 0);
  if (isa<AllocaInst>(Object))
    return true;
  auto *Call = dyn_cast<CallBase>(Object);
  return Call && isAllocationCall(*Call);
}

Type *FunctionDifferentiator::neededType(NeededValue V) const {
  Value *Val = V.getPointer();
  if (isa<BasicBlock>(Val))
    return Type::getInt32Ty(Val->getContext());
  return V.getInt() ? derivativeType(Val->getType()) : Val->getType();
}

Value *FunctionDifferentiator::scaleAdjoint(IRBuilder<> &B,
                                            Instruction::BinaryOps Op, Value *D,
                                            Value *Factor, Type *Ty) {
  if (Sig.Width == 1)
    return B.CreateBinOp(Op, D, Factor);
  // The lanes of a scalar's adjoint are a vector: one instruction for all.
  if (!Ty->isVectorTy() && D->getType()->isVectorTy())
    return B.CreateBinOp(Op, D, B.CreateVectorSplat(Sig.Width, Factor));
  return mapLanes(B, Sig.Width, {D}, Ty, [&](ArrayRef<Value *> Lane) {
    return B.CreateBinOp(Op, Lane[0], Factor);
  });
}

AllocaInst *FunctionDifferentiator::adjointSlot(Value *V) {
  auto It = Adjoints.find(V);
  if (It != Adjoints.end())
    return It->second;
  IRBuilder<> B(RevEntry, RevEntry->begin());
  Type *Ty = derivativeType(V->getType());
  AllocaInst *Slot = B.CreateAlloca(Ty, nullptr, V->getName() + ".adj");
  B.CreateStore(zeroAdjoint(Ty), Slot);
  Adjoints[V] = Slot;
  return Slot;
}

void FunctionDifferentiator::addAdjoint(Value *V, Value *Delta,
                                        IRBuilder<> &B) {
  if (!(isa<Instruction>(V) || isa<Argument>(V)) || !Activity.isActive(V))
    return;
  AllocaInst *Slot = adjointSlot(V);
  Value *Old = B.CreateLoad(Slot->getAllocatedType(), Slot);
  // The order in which contributions reach an adjoint is the engine's
  // choice, not the program's: a loop that accumulates one may be
  // vectorised as a reduction.
  FastMathFlags Reassoc;
  Reassoc.setAllowReassoc();
  IRBuilder<>::FastMathFlagGuard Guard(B);
  B.setFastMathFlags(Reassoc);
  B.CreateStore(addAdjoints(B, Old, Delta), Slot);
}

AllocaInst *FunctionDifferentiator::loopSlot(NeededValue V) {
  AllocaInst *&Slot = LoopSlots[V];
  if (!Slot) {
    IRBuilder<> B(RevEntry, RevEntry->begin());
    Slot = B.CreateAlloca(neededType(V), nullptr,
                          V.getPointer()->getName() + ".slot");
  }
  return Slot;
}

Value *FunctionDifferentiator::takeAdjoint(Value *V, IRBuilder<> &B) {
  AllocaInst *Slot = adjointSlot(V);
  Type *Ty = Slot->getAllocatedType();
  Value *D = B.CreateLoad(Ty, Slot, V->getName() + ".d");
  B.CreateStore(zeroAdjoint(Ty), Slot);
  return D;
}

bool FunctionDifferentiator::hasCounterSlot(const ReversibleLoop &RL,
                                            PHINode *Counter) const {
  auto Pushed = LoopExitValues.find(&RL);
  auto Computed = CounterFinals.find(&RL);
  return (Pushed != LoopExitValues.end() &&
          Pushed->second.count(primalOf(Counter))) ||
         (Computed != CounterFinals.end() && Computed->second.count(Counter));
}

Value *FunctionDifferentiator::reverseValue(NeededValue V) {
  Value *Val = V.getPointer();
  if (auto *A = dyn_cast<Argument>(Val)) {
    Value *R = V.getInt() ? RevShadowArgs.lookup(A) : RevArgs.lookup(A);
    return R ? R : Constant::getNullValue(neededType(V));
  }
  if (auto *C = dyn_cast<Constant>(Val))
    return V.getInt() ? constantShadowOf(C, *Pair.Reverse) : C;
  if (Value *R = RevLocal.lookup(V))
    return R;
  if (Value *R = RevGlobal.lookup(V))
    return R;
  std::string What;
  raw_string_ostream OS(What);
  Val->printAsOperand(OS, /*PrintType=*/true);
  fail(dyn_cast<Instruction>(Val),
       "internal error: the reverse pass needs a value it did not plan for (" +
           What + (V.getInt() ? ", shadow" : "") + " in " + Prep.getName() +
           ")");
  return PoisonValue::get(neededType(V));
}

Value *FunctionDifferentiator::materialize(NeededValue V, IRBuilder<> &B) {
  auto *I = cast<Instruction>(V.getPointer());
  auto Copy = [&](Value *Operand0) {
    Instruction *Copy = I->clone();
    Copy->setDebugLoc(DebugLoc());
    for (unsigned Op = 0; Op < I->getNumOperands(); ++Op)
      Copy->setOperand(Op, Op == 0 && Operand0 ? Operand0
                                               : primal(I->getOperand(Op)));
    return Copy;
  };
  if (!V.getInt())
    return B.Insert(Copy(nullptr), I->getName() + ".re");
  // The shadow of a pointer counter walks the shadow as the counter walks
  // the primal: as far from its start's shadow.
  if (const LoopCounter *C = shadowCounter(*I)) {
    Value *Walked = B.CreateSub(
        B.CreatePtrToInt(primal(C->Phi), B.getInt64Ty()),
        B.CreatePtrToInt(primal(C->Start), B.getInt64Ty()), "walked");
    return mapLanes(B, Sig.Width, {shadow(C->Start)}, I->getType(),
                    [&](ArrayRef<Value *> Lane) {
                      return B.CreatePtrAdd(Lane[0], Walked,
                                            I->getName() + ".shadow.re");
                    });
  }
  // A shadow: the same instruction on the shadow of its first operand, in
  // each direction. The primal's alias scopes do not hold for it.
  return mapLanes(B, Sig.Width, {shadow(I->getOperand(0))}, I->getType(),
                  [&](ArrayRef<Value *> Lane) {
                    Instruction *S = Copy(Lane[0]);
                    S->setMetadata(LLVMContext::MD_alias_scope, nullptr);
                    S->setMetadata(LLVMContext::MD_noalias, nullptr);
                    return B.Insert(S, I->getName() + ".shadow.re");
                  });
}

/// Moves the adjoint of one copied element from the destination's shadow
/// back to the source's: src' += dst' (atomically when other threads may
/// read the source too, SharedAdjoints.h), dst' = 0.
static void moveElementAdjoint(IRBuilder<> &B, Type *Ty, Value *DstShadow,
                               Value *SrcShadow, bool Atomic,
                               MaybeAlign DstAlign = {},
                               MaybeAlign SrcAlign = {}) {
  Value *D = B.CreateAlignedLoad(Ty, DstShadow, DstAlign);
  B.CreateAlignedStore(Constant::getNullValue(Ty), DstShadow, DstAlign);
  accumulateAdjoint(B, Ty, SrcShadow, D, SrcAlign, Atomic);
}

/// `void enzyme.memcpy.adjoint.T(ptr dst', ptr src', i64 bytes)`: moves the
/// adjoint of copied floating-point elements back from the destination to
/// the source and clears the destination's (`...adjoint.atomic.T` adds to
/// the source's atomically), in the order overlapping ranges need
/// (RecordCopies.h).
static Function *getMemcpyAdjoint(Module &M, Type *ElemTy, bool Atomic) {
  std::string Name =
      Atomic ? "enzyme.memcpy.adjoint.atomic." : "enzyme.memcpy.adjoint.";
  raw_string_ostream(Name) << *ElemTy;
  return getElementLoop(M, Name, M.getDataLayout().getTypeAllocSize(ElemTy),
                        /*AsWritten=*/false,
                        [&](IRBuilder<> &B, Value *Dst, Value *Src) {
                          moveElementAdjoint(B, ElemTy, Dst, Src, Atomic);
                        });
}

void FunctionDifferentiator::reverseMemoryTransfer(CallBase &Call,
                                                   IRBuilder<> &B) {
  auto &Mem = cast<MemTransferInst>(Call);
  if (!Activity.isShadowed(Mem.getDest()))
    return;
  Value *Dst = shadow(Mem.getDest());
  Value *Len = B.CreateZExtOrTrunc(primal(Mem.getLength()), B.getInt64Ty());
  if (!Activity.isShadowed(Mem.getSource())) {
    // Copied from inactive memory: the destination's adjoints stop here.
    forEachLane(B, Sig.Width, {Dst}, [&](ArrayRef<Value *> Lane, unsigned) {
      B.CreateMemSet(Lane[0], B.getInt8(0), Len, MaybeAlign());
    });
    return;
  }
  if (UntypedCopies.count(&Mem)) {
    // Nothing moves when the destination's shadow is zero, whatever the
    // bytes hold; otherwise the program stops (UntypedCopyGuards.h).
    forEachLane(B, Sig.Width, {Dst}, [&](ArrayRef<Value *> Lane, unsigned) {
      checkUntypedCopyShadows(B, Lane[0], nullptr, Len, *Sig.Fn,
                              Mem.getDebugLoc());
    });
    return;
  }
  Value *Src = shadow(Mem.getSource());
  bool Atomic = readIsShared(Mem.getSource(), ThreadsShareMemory);
  const CopyLayout &Layout = CopyLayouts.find(&Mem)->second;
  if (Layout.HasPointers && !Layout.HasFloats)
    return; // Only shadow pointers moved; no adjoints to return.
  forEachLane(B, Sig.Width, {Dst, Src}, [&](ArrayRef<Value *> Lane, unsigned) {
    if (!Layout.HasPointers) {
      // Floats, or only integers (the plan proved one or the other).
      if (Layout.FloatTy)
        B.CreateCall(
            getMemcpyAdjoint(*Prep.getParent(), Layout.FloatTy, Atomic),
            {Lane[0], Lane[1], Len});
      return;
    }
    // Mixed contents: move the adjoints of the floating-point fields only,
    // element by element where the length is known at run time only.
    if (auto It = ElementRecords.find(&Mem); It != ElementRecords.end()) {
      B.CreateCall(getRecordAdjointMove(*Prep.getParent(), It->second, Atomic),
                   {Lane[0], Lane[1], Len});
      return;
    }
    // Otherwise all read and cleared before any is added (the ranges of a
    // memmove may overlap).
    uint64_t Length = cast<ConstantInt>(Mem.getLength())->getZExtValue();
    SmallVector<std::tuple<Type *, Value *, Value *>, 4> Moved;
    for (auto [Offset, Ty] : Layout.slotsWithin(
             Length, [](Type *T) { return T->isFloatingPointTy(); })) {
      Value *To = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Lane[1], Offset);
      Value *From =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Lane[0], Offset);
      Moved.emplace_back(Ty, To, B.CreateLoad(Ty, From));
      B.CreateStore(Constant::getNullValue(Ty), From);
    }
    for (auto [Ty, To, Adjoint] : Moved)
      accumulateAdjoint(B, Ty, To, Adjoint, MaybeAlign(), Atomic);
  });
}

bool FunctionDifferentiator::reverseCall(CallBase &Call, IRBuilder<> &B) {
  // A block allocated elsewhere and freed here: the reverse of the code
  // before the free still uses its shadow, so it is handed over, to be
  // freed when the sweep ends (Core/ShadowMemory.h).
  auto HandOverFreedShadow = [&] {
    if (!freesBlockAllocatedElsewhere(Call))
      return;
    Value *Alignment = nullptr;
    if (std::optional<unsigned> Op = deallocationAlignmentOperand(Call))
      Alignment = primal(Call.getArgOperand(*Op));
    forEachLane(B, Sig.Width, {shadow(Call.getArgOperand(0))},
                [&](ArrayRef<Value *> Lane, unsigned) {
                  handOverShadow(B, Lane[0], allocatorFamily(Call), Alignment);
                });
  };
  // The reverse pass of a GPU thread reads what other threads' reverse
  // passes wrote (shared memory's adjoints) where the forward pass read
  // what they wrote: it waits for them at the mirror of each barrier.
  if (isThreadBarrier(Call)) {
    emitMirroredBarrier(B, Call, [&](Value *V) { return primal(V); });
    return true;
  }
  // OpenMP threads likewise, at barriers and critical sections.
  if (isOpenMPSynchronization(Call)) {
    emitMirroredOpenMPSynchronization(B, Call,
                                      [&](Value *V) { return primal(V); });
    return true;
  }
  // And MPI processes at MPI_Barrier.
  if (isMpiBarrier(Call)) {
    emitMirroredMpiBarrier(B, Call, [&](Value *V) { return primal(V); });
    return true;
  }
  switch (classifyCall(Call)) {
  case CallKind::Inactive:
    return true;
  case CallKind::Deallocation:
    HandOverFreedShadow();
    return true;
  case CallKind::Allocation: {
    ArrayRef<CallInst *> Frees = Unmodified.frees(Call);
    if (KeptAllocations.count(&Call) && !Frees.empty()) {
      // The forward pass left the block allocated for the values the
      // reverse pass reloaded from it; free it the way the program did.
      auto *Free = cast<CallInst>(Frees.front()->clone());
      Free->setArgOperand(0, primal(&Call));
      B.Insert(Free);
    }
    if (!Activity.isShadowed(&Call))
      return true;
    if (isReallocCall(Call)) {
      // The adjoints of the elements that realloc moved go back to the old
      // shadow, where the reverse of the earlier code looks for them.
      Value *Size =
          B.CreateZExtOrTrunc(primal(Call.getArgOperand(1)), B.getInt64Ty());
      forEachLane(
          B, Sig.Width, {shadow(Call.getArgOperand(0)), shadow(&Call)},
          [&](ArrayRef<Value *> Lane, unsigned) {
            Value *Moved = B.CreateBinaryIntrinsic(
                Intrinsic::umin, emitMallocUsableSize(B, Lane[0]), Size);
            B.CreateMemCpy(Lane[0], MaybeAlign(), Lane[1], MaybeAlign(), Moved);
          });
      HandOverFreedShadow();
    }
    if (FreedAllocations.count(&Call)) {
      // As createZeroedShadowMemory made it.
      AllocatorFamily Family = allocatorFamily(Call);
      Value *Alignment = nullptr;
      if (std::optional<unsigned> Op = allocationAlignmentOperand(Call);
          Op && Family != AllocatorFamily::Malloc)
        Alignment = primal(Call.getArgOperand(*Op));
      forEachLane(B, Sig.Width, {shadow(&Call)},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    freeShadowMemory(B, Lane[0], Family, Alignment);
                  });
    }
    return true;
  }
  case CallKind::MemoryTransfer:
    reverseMemoryTransfer(Call, B);
    return true;
  case CallKind::MemorySet: {
    auto &Mem = cast<MemSetInst>(Call);
    if (Activity.isShadowed(Mem.getDest()))
      forEachLane(B, Sig.Width, {shadow(Mem.getDest())},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    B.CreateMemSet(Lane[0], B.getInt8(0),
                                   primal(Mem.getLength()), MaybeAlign());
                  });
    return true;
  }
  case CallKind::WarpShuffle: {
    if (!Activity.isActive(&Call))
      return true;
    Value *D = takeAdjoint(&Call, B);
    addAdjoint(Call.getArgOperand(1),
               mapLanes(B, Sig.Width, {D}, Call.getType(),
                        [&](ArrayRef<Value *> Lane) {
                          return emitShuffleAdjoint(
                              B, Call, Lane[0],
                              [&](Value *V) { return primal(V); });
                        }),
               B);
    return true;
  }
  case CallKind::MathRule: {
    if (!Activity.isActive(&Call))
      return true;
    const rules::MathRule *Rule = rules::findMathRule(Call);
    Value *D = takeAdjoint(&Call, B);
    SmallVector<Value *, 3> Args;
    bool AnyActiveArg = false;
    for (unsigned A = 0; A < Call.arg_size(); ++A)
      AnyActiveArg |=
          Rule->hasPartial(A) && Activity.isActive(Call.getArgOperand(A));
    if (!AnyActiveArg)
      return true;
    // x̄ᵢ += Σ_parts ∂fₚ/∂xᵢ · f̄ₚ (one part, or {re, im} of a complex f).
    Type *Ty = rules::ruleType(Call);
    for (unsigned A = 0; A < Call.arg_size(); ++A) {
      Value *Arg = Call.getArgOperand(A);
      Args.push_back(partialsMentionArgument(Call, A)
                         ? primal(Arg)
                         : PoisonValue::get(Arg->getType()));
    }
    Value *Result = nullptr;
    for (unsigned Part = 0; Part < Rule->resultParts(); ++Part) {
      Value *DPart = D;
      if (Rule->returnsComplex())
        DPart = mapLanes(B, Sig.Width, {D}, Ty, [&](ArrayRef<Value *> Lane) {
          return B.CreateExtractValue(Lane[0], Part);
        });
      for (unsigned A = 0; A < Call.arg_size(); ++A) {
        Value *Arg = Call.getArgOperand(A);
        const std::optional<rules::Expr> &P = Rule->partial(Part, A);
        if (!P || !Activity.isActive(Arg))
          continue;
        if (!Result && rules::mentionsResult(*P))
          Result = primal(&Call);
        Value *Partial = rules::emitExpr(*P, B, Ty, Args, Result);
        addAdjoint(Arg, scaleAdjoint(B, Instruction::FMul, DPart, Partial, Ty),
                   B);
      }
    }
    return true;
  }
  case CallKind::VectorIntrinsic:
    return reverseVectorIntrinsic(Call, *classifyVectorIntrinsic(Call), B);
  case CallKind::Differentiated:
    break;
  }

  ReverseSignature CalleeSig;
  const ReversePair *Callee = calleePair(Call, CalleeSig);
  if (!Callee)
    return false;
  SmallVector<Value *, 8> Args;
  if (!CalleeSig.Fn) // The dispatcher takes the pointer first.
    Args.push_back(primal(Call.getCalledOperand()));
  for (Value *Arg : Call.args())
    Args.push_back(primal(Arg));
  for (unsigned A = 0; A < Call.arg_size(); ++A)
    if (hasShadow(CalleeSig.Args[A]))
      Args.push_back(shadow(Call.getArgOperand(A)));
  if (CalleeSig.ReturnActive)
    Args.push_back(takeAdjoint(&Call, B));
  Args.push_back(calleeTape(Call, RevTape, B));
  CallInst *Gradients = B.CreateCall(Callee->Reverse, Args);
  unsigned Field = 0;
  for (unsigned A = 0; A < Call.arg_size(); ++A) {
    if (CalleeSig.Args[A] != Activity::Out)
      continue;
    addAdjoint(Call.getArgOperand(A), B.CreateExtractValue(Gradients, Field++),
               B);
  }
  return true;
}

bool FunctionDifferentiator::reverseAtomicAdd(AtomicRMWInst &RMW,
                                              IRBuilder<> &B) {
  Value *Ptr = RMW.getPointerOperand(), *Val = RMW.getValOperand();
  // Anything else on memory with derivatives stopped the plan.
  if (!Activity.isShadowed(Ptr) || !isAtomicFloatAdd(RMW))
    return true;
  Type *Ty = RMW.getType();
  // *P = old + v: the new value's adjoint in memory is v's, and stays
  // there for the old value.
  if (Activity.isActive(Val)) {
    bool Subtracts = RMW.getOperation() == AtomicRMWInst::FSub;
    addAdjoint(Val,
               mapLanes(B, Sig.Width, {shadow(Ptr)}, Ty,
                        [&](ArrayRef<Value *> Lane) {
                          Value *A =
                              B.CreateAlignedLoad(Ty, Lane[0], RMW.getAlign());
                          return Subtracts ? B.CreateFNeg(A) : A;
                        }),
               B);
  }
  // The result is a read of the old value.
  if (Activity.isActive(&RMW)) {
    Value *D = takeAdjoint(&RMW, B);
    bool Atomic = readIsShared(Ptr, ThreadsShareMemory);
    forEachLane(
        B, Sig.Width, {shadow(Ptr), D}, [&](ArrayRef<Value *> Lane, unsigned) {
          accumulateAdjoint(B, Ty, Lane[0], Lane[1], RMW.getAlign(), Atomic);
        });
  }
  return true;
}

bool FunctionDifferentiator::reverseInstruction(Instruction &I,
                                                IRBuilder<> &B) {
  if (isa<PHINode>(I) || I.isTerminator())
    return true;
  if (auto *Call = dyn_cast<CallBase>(&I))
    return reverseCall(*Call, B);
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    IntegerStoreRole Role = integerStoreRole(*Store);
    if (Role.What == IntegerStoreRole::MoveAdjoints) {
      // An integer copy of floating-point data: the adjoint moves from the
      // destination back to the source, as for memcpy.
      auto *Load = cast<LoadInst>(Store->getValueOperand());
      forEachLane(
          B, Sig.Width,
          {shadow(Store->getPointerOperand()),
           shadow(Load->getPointerOperand())},
          [&](ArrayRef<Value *> Lane, unsigned) {
            for (unsigned E = 0; E < Role.Count; ++E)
              moveElementAdjoint(
                  B, Role.FloatTy,
                  B.CreateConstInBoundsGEP1_64(Role.FloatTy, Lane[0], E),
                  B.CreateConstInBoundsGEP1_64(Role.FloatTy, Lane[1], E),
                  readIsShared(Load->getPointerOperand(), ThreadsShareMemory),
                  Store->getAlign(), adjointAlignment(*Load));
          });
      return true;
    }
    if (Role.What == IntegerStoreRole::Untyped) {
      // As for an untyped memcpy (UntypedCopyGuards.h).
      Value *Bytes = B.getInt64(Prep.getDataLayout().getTypeStoreSize(
          Store->getValueOperand()->getType()));
      forEachLane(B, Sig.Width, {shadow(Store->getPointerOperand())},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    checkUntypedCopyShadows(B, Lane[0], nullptr, Bytes, *Sig.Fn,
                                            Store->getDebugLoc());
                  });
      return true;
    }
    if (Role.What == IntegerStoreRole::ClearAdjoints) {
      // Floats overwritten by bits from elsewhere (memset, a copy from
      // constant memory): what was there before gets no adjoint.
      forEachLane(
          B, Sig.Width, {shadow(Store->getPointerOperand())},
          [&](ArrayRef<Value *> Lane, unsigned) {
            B.CreateAlignedStore(
                Constant::getNullValue(Store->getValueOperand()->getType()),
                Lane[0], Store->getAlign());
          });
      return true;
    }
    Value *Val = Store->getValueOperand();
    if (!Activity.isShadowed(Store->getPointerOperand()) ||
        !isDifferentiableType(Val->getType()))
      return true;
    // The store overwrote the memory: its adjoint so far belongs to the
    // stored value, and what was there before gets none.
    // Memory the function allocates itself is never seen by the caller:
    // there the identity -0.0 lets a following `+=` (the reverse of the
    // load that read the old value) fold into the store.
    Type *Ty = Val->getType();
    bool Local = isFunctionLocalMemory(Store->getPointerOperand());
    Value *D =
        mapLanes(B, Sig.Width, {shadow(Store->getPointerOperand())}, Ty,
                 [&](ArrayRef<Value *> Ptr) {
                   Value *Lane =
                       B.CreateAlignedLoad(Ty, Ptr[0], Store->getAlign());
                   B.CreateAlignedStore(Local ? zeroAdjoint(Ty)
                                              : Constant::getNullValue(Ty),
                                        Ptr[0], Store->getAlign());
                   return Lane;
                 });
    addAdjoint(Val, D, B);
    return true;
  }
  if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
    if (Activity.isShadowed(Alloca))
      forEachLane(B, Sig.Width, {shadow(Alloca)},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    freeShadowOfLocal(B, Lane[0], Alloca->getAlign());
                  });
    return true;
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return reverseAtomicAdd(*RMW, B);
  if (!Activity.isActive(&I))
    return true;

  Value *D = takeAdjoint(&I, B);
  auto Op = [&](unsigned N) { return I.getOperand(N); };
  // Rules are written for one direction; in vector mode they apply to each
  // lane of D (Core/Lanes.h), or to all lanes at once where the lanes of a
  // scalar are a vector that the instruction takes as it is.
  unsigned Width = Sig.Width;
  auto PerLane = [&](Type *Ty, function_ref<Value *(Value *)> Rule) {
    return mapLanes(B, Width, {D}, Ty,
                    [&](ArrayRef<Value *> Lane) { return Rule(Lane[0]); });
  };
  auto Negated = [&](Value *Adjoint) {
    if (Adjoint->getType()->isFPOrFPVectorTy())
      return B.CreateFNeg(Adjoint);
    return mapLanes(
        B, Width, {Adjoint}, I.getType(),
        [&](ArrayRef<Value *> Lane) { return B.CreateFNeg(Lane[0]); });
  };
  auto Scaled = [&](Instruction::BinaryOps Opcode, Value *Factor) {
    return scaleAdjoint(B, Opcode, D, Factor, I.getType());
  };
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    addAdjoint(Op(0), D, B);
    addAdjoint(Op(1), D, B);
    return true;
  case Instruction::FSub:
    addAdjoint(Op(0), D, B);
    addAdjoint(Op(1), Negated(D), B);
    return true;
  case Instruction::FMul:
    if (Activity.isActive(Op(0)))
      addAdjoint(Op(0), Scaled(Instruction::FMul, primal(Op(1))), B);
    if (Activity.isActive(Op(1)))
      addAdjoint(Op(1), Scaled(Instruction::FMul, primal(Op(0))), B);
    return true;
  case Instruction::FDiv: {
    Value *Den = primal(Op(1));
    // D / b, the dividend's adjoint. GPU code recomputes the quotient rather
    // than record it, and its other uses often need it too: there the
    // divisor's, -(D / b) * (a / b), reuses both (one division more than
    // the dividend's, not two). Host code, which records, uses a / (b * b).
    Value *Share = Activity.isActive(Op(0)) || RecomputesMath
                       ? Scaled(Instruction::FDiv, Den)
                       : nullptr;
    if (Activity.isActive(Op(0)))
      addAdjoint(Op(0), Share, B);
    if (Activity.isActive(Op(1))) {
      Value *Grad =
          RecomputesMath
              ? scaleAdjoint(B, Instruction::FMul, Share, primal(&I),
                             I.getType())
              : Scaled(Instruction::FMul,
                       B.CreateFDiv(primal(Op(0)), B.CreateFMul(Den, Den)));
      addAdjoint(Op(1), Negated(Grad), B);
    }
    return true;
  }
  case Instruction::FRem: {
    // a - b * trunc(a / b): d/da = 1, d/db = -trunc(a / b), as fmod.
    addAdjoint(Op(0), D, B);
    if (Activity.isActive(Op(1))) {
      Value *Quotient = B.CreateUnaryIntrinsic(
          Intrinsic::trunc, B.CreateFDiv(primal(Op(0)), primal(Op(1))));
      addAdjoint(Op(1), Negated(Scaled(Instruction::FMul, Quotient)), B);
    }
    return true;
  }
  case Instruction::FNeg:
    addAdjoint(Op(0), Negated(D), B);
    return true;
  case Instruction::FPExt:
  case Instruction::FPTrunc: {
    Type *From = Op(0)->getType();
    // Lanes of doubles are a vector, lanes of long doubles an array: a cast
    // of all lanes at once only between vectors.
    if (D->getType()->isFPOrFPVectorTy() &&
        derivativeType(From)->isFPOrFPVectorTy())
      addAdjoint(Op(0), B.CreateFPCast(D, derivativeType(From)), B);
    else
      addAdjoint(
          Op(0),
          PerLane(From, [&](Value *L) { return B.CreateFPCast(L, From); }), B);
    return true;
  }
  case Instruction::BitCast:
    if (isDifferentiableType(Op(0)->getType())) {
      Type *From = Op(0)->getType();
      addAdjoint(
          Op(0),
          PerLane(From, [&](Value *L) { return B.CreateBitCast(L, From); }), B);
    } else if (auto *Load = dyn_cast<LoadInst>(Op(0))) {
      // A float read as an integer and reinterpreted: the adjoint goes to
      // the memory it was read from, as for a load of the float.
      bool Atomic = readIsShared(Load->getPointerOperand(), ThreadsShareMemory);
      forEachLane(B, Width, {shadow(Load->getPointerOperand()), D},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    accumulateAdjoint(B, I.getType(), Lane[0], Lane[1],
                                      adjointAlignment(*Load), Atomic);
                  });
    }
    return true;
  case Instruction::Freeze:
    addAdjoint(Op(0), D, B);
    return true;
  case Instruction::Select: {
    Value *Cond = primal(Op(0));
    // A scalar condition picks the adjoint of all lanes at once.
    Type *Ty = Cond->getType()->isVectorTy() ? I.getType() : D->getType();
    unsigned Lanes = Cond->getType()->isVectorTy() ? Width : 1;
    Value *Zero = zeroAdjoint(Ty);
    auto Picked = [&](bool IfTrue) {
      return mapLanes(B, Lanes, {D}, Ty, [&](ArrayRef<Value *> L) {
        return IfTrue ? B.CreateSelect(Cond, L[0], Zero)
                      : B.CreateSelect(Cond, Zero, L[0]);
      });
    };
    addAdjoint(Op(1), Picked(true), B);
    addAdjoint(Op(2), Picked(false), B);
    return true;
  }
  case Instruction::ExtractValue: {
    auto &EV = cast<ExtractValueInst>(I);
    Type *AggTy = EV.getAggregateOperand()->getType();
    addAdjoint(EV.getAggregateOperand(),
               PerLane(AggTy,
                       [&](Value *L) {
                         return B.CreateInsertValue(zeroAdjoint(AggTy), L,
                                                    EV.getIndices());
                       }),
               B);
    return true;
  }
  case Instruction::ExtractElement: {
    auto &EE = cast<ExtractElementInst>(I);
    Type *VecTy = EE.getVectorOperand()->getType();
    Value *Index = primal(EE.getIndexOperand());
    addAdjoint(EE.getVectorOperand(),
               PerLane(VecTy,
                       [&](Value *L) {
                         return B.CreateInsertElement(zeroAdjoint(VecTy), L,
                                                      Index);
                       }),
               B);
    return true;
  }
  case Instruction::InsertElement: {
    auto &IE = cast<InsertElementInst>(I);
    Value *Index = primal(IE.getOperand(2));
    Value *Elt = IE.getOperand(1);
    addAdjoint(
        Elt,
        PerLane(Elt->getType(),
                [&](Value *L) { return B.CreateExtractElement(L, Index); }),
        B);
    addAdjoint(IE.getOperand(0),
               PerLane(I.getType(),
                       [&](Value *L) {
                         return B.CreateInsertElement(
                             L, zeroAdjoint(Elt->getType()), Index);
                       }),
               B);
    return true;
  }
  case Instruction::InsertValue: {
    auto &IV = cast<InsertValueInst>(I);
    Value *Elt = IV.getInsertedValueOperand();
    addAdjoint(Elt,
               PerLane(Elt->getType(),
                       [&](Value *L) {
                         return B.CreateExtractValue(L, IV.getIndices());
                       }),
               B);
    addAdjoint(IV.getAggregateOperand(),
               PerLane(I.getType(),
                       [&](Value *L) {
                         return B.CreateInsertValue(
                             L, zeroAdjoint(Elt->getType()), IV.getIndices());
                       }),
               B);
    return true;
  }
  case Instruction::ShuffleVector:
    return reverseShuffle(cast<ShuffleVectorInst>(I), D, B);
  case Instruction::Load: {
    auto &Load = cast<LoadInst>(I);
    forEachLane(B, Width, {shadow(Load.getPointerOperand()), D},
                [&](ArrayRef<Value *> Lane, unsigned) {
                  accumulateLoadAdjoint(Load, Lane[0], Lane[1], B);
                });
    return true;
  }
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    return true;
  default:
    return fail(&I, "cannot differentiate the instruction '" +
                        Twine(I.getOpcodeName()) + "'");
  }
}

void FunctionDifferentiator::branchToPredecessors(BasicBlock &BB,
                                                  IRBuilder<> &B) {
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : BB.phis())
    if (Activity.isActive(&Phi))
      PhiAdjoints.emplace_back(&Phi, takeAdjoint(&Phi, B));

  // Going back from a loop's header to its latch steps its counters back.
  const ReversibleLoop *RL = Loops.headedBy(&BB);
  auto StepCountersBack = [&](BasicBlock *Pred, IRBuilder<> &EB) {
    if (!RL || Pred != RL->Latch)
      return;
    for (const LoopCounter &C : RL->Counters)
      if (hasCounterSlot(*RL, C.Phi)) {
        AllocaInst *Slot = loopSlot(primalOf(C.Phi));
        Value *Current = EB.CreateLoad(C.Phi->getType(), Slot);
        EB.CreateStore(C.Phi->getType()->isPointerTy()
                           ? EB.CreatePtrAdd(Current, EB.CreateNeg(C.Step))
                           : EB.CreateSub(Current, C.Step),
                       Slot);
      }
  };
  auto PropagateEdge = [&](BasicBlock *Pred, IRBuilder<> &EB) {
    for (auto [Phi, D] : PhiAdjoints)
      addAdjoint(Phi->getIncomingValueForBlock(Pred), D, EB);
    StepCountersBack(Pred, EB);
    // Coming back to a skipped loop from its exit: on to before it.
    const Loop *Skipped = skippedLoopOf(Pred);
    EB.CreateBr(RevBlocks[Skipped ? Skipped->getLoopPreheader() : Pred]);
  };

  SmallVector<BasicBlock *, 4> Preds = uniquePredecessors(&BB);
  if (Preds.empty()) {
    B.CreateBr(RevReturn);
    return;
  }
  if (Preds.size() == 1) {
    PropagateEdge(Preds.front(), B);
    return;
  }
  // The reverse of the edge from \p Pred, in a block of its own.
  auto EdgeFrom = [&](BasicBlock *Pred, const Twine &Name) {
    BasicBlock *Edge =
        BasicBlock::Create(Pair.Reverse->getContext(), Name, Pair.Reverse);
    IRBuilder<> EB(Edge);
    PropagateEdge(Pred, EB);
    return Edge;
  };
  if (const LoopCounter *C = RL ? RL->firstIterationCounter() : nullptr) {
    Value *First = B.CreateICmpEQ(primal(C->Phi), primal(C->Start));
    B.CreateCondBr(First,
                   EdgeFrom(RL->Preheader, BB.getName() + ".rev.entered"),
                   EdgeFrom(RL->Latch, BB.getName() + ".rev.repeated"));
    return;
  }
  if (auto It = DecidedJoins.find(&BB); It != DecidedJoins.end()) {
    const DecidedJoin &Join = It->second;
    B.CreateCondBr(primal(Join.Condition),
                   EdgeFrom(Join.FromIfTrue, BB.getName() + ".from." +
                                                 Join.FromIfTrue->getName()),
                   EdgeFrom(Join.FromIfFalse, BB.getName() + ".from." +
                                                  Join.FromIfFalse->getName()));
    return;
  }
  Value *Index = reverseValue(NeededValue(&BB, false));
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *P : Preds)
    Edges.push_back(EdgeFrom(P, BB.getName() + ".from." + P->getName()));
  SwitchInst *Switch = B.CreateSwitch(Index, Edges.front(), Edges.size() - 1);
  for (unsigned I = 1; I < Edges.size(); ++I)
    Switch->addCase(B.getInt32(I), Edges[I]);
}

void FunctionDifferentiator::reverseBlock(BasicBlock &BB) {
  RevLocal.clear();
  PeerGroups.clear();
  IRBuilder<> B(RevBlocks[&BB]);
  const TapeBuilder &Tape = Gen.tape();

  SmallVector<Type *, 8> Types;
  SmallVector<NeededValue, 8> Popped;
  for (NeededValue V : Batches.lookup(&BB)) {
    Types.push_back(neededType(V));
    Popped.push_back(V);
  }
  unsigned LocalCount = Popped.size();
  for (NeededValue V : loopExitPushes(&BB)) {
    Types.push_back(neededType(V));
    Popped.push_back(V);
  }
  SmallVector<Value *, 8> Values =
      Sig.FixedTape
          ? Tape.load(B, RevTape, FixedBatchOffsets.lookup(&BB), Types)
          : Tape.pop(B, RevTape, Types);
  for (unsigned I = 0; I < Popped.size(); ++I) {
    if (I < LocalCount)
      RevLocal[Popped[I]] = Values[I];
    else // The reverse pass enters a loop here.
      B.CreateStore(Values[I], loopSlot(Popped[I]));
  }
  for (NeededValue V : SlotReads.lookup(&BB))
    RevLocal[V] = B.CreateLoad(neededType(V), loopSlot(V),
                               V.getPointer()->getName() + ".cur");
  for (NeededValue V : Recomputed.lookup(&BB))
    RevLocal[V] = materialize(V, B);
  // Entering a loop backwards: counters start from their last value.
  for (auto &[RL, Finals] : CounterFinals)
    if (is_contained(RL->ExitBlocks, &BB))
      for (auto [Counter, Final] : Finals)
        B.CreateStore(emitInvariant(Final, *RL->L, SE, B,
                                    [&](Value *Leaf) { return primal(Leaf); }),
                      loopSlot(primalOf(Counter)));

  if (&BB == ExitBlock && RevReturnAdjoint)
    if (Value *Ret = cast<ReturnInst>(BB.getTerminator())->getReturnValue())
      addAdjoint(Ret, RevReturnAdjoint, B);

  for (Instruction &I : reverse(BB))
    if (!reverseInstruction(I, B))
      return;
  branchToPredecessors(BB, B);
}

bool FunctionDifferentiator::buildReverse() {
  Function *Rev = Pair.Reverse;
  LLVMContext &Ctx = Rev->getContext();
  unsigned NextArg = Prep.arg_size();
  for (Argument &A : Prep.args()) {
    RevArgs[&A] = Rev->getArg(A.getArgNo());
    if (hasShadow(Sig.Args[A.getArgNo()]))
      RevShadowArgs[&A] = Rev->getArg(NextArg++);
  }
  if (Sig.ReturnActive)
    RevReturnAdjoint = Rev->getArg(NextArg++);
  RevTape = Rev->getArg(NextArg);

  RevEntry = BasicBlock::Create(Ctx, "entry", Rev);
  for (BasicBlock &BB : Prep)
    RevBlocks[&BB] = BasicBlock::Create(Ctx, BB.getName() + ".rev", Rev);
  RevReturn = BasicBlock::Create(Ctx, "return", Rev);

  IRBuilder<> B(RevEntry);
  if (ExitBlock) {
    SmallVector<Type *, 8> Types;
    for (NeededValue V : ExitBatch)
      Types.push_back(neededType(V));
    // The exit block pushed these last in its batch.
    SmallVector<Type *, 8> ExitTypes = batchTypes(*ExitBlock);
    uint64_t Offset =
        FixedBatchOffsets.lookup(ExitBlock) +
        Gen.tape().packedSize(ArrayRef(ExitTypes).drop_back(ExitBatch.size()));
    SmallVector<Value *, 8> Values =
        Sig.FixedTape ? Gen.tape().load(B, RevTape, Offset, Types)
                      : Gen.tape().pop(B, RevTape, Types);
    for (auto [V, Val] : zip(ExitBatch, Values))
      RevGlobal[V] = Val;
    B.CreateBr(RevBlocks[ExitBlock]);
  } else {
    B.CreateBr(RevReturn);
  }

  for (BasicBlock &BB : Prep) {
    if (skippedLoopOf(&BB)) {
      new UnreachableInst(Ctx, RevBlocks[&BB]);
      continue;
    }
    reverseBlock(BB);
    if (!Failure->Message.empty())
      return false;
  }

  // Gradients of the by-value active arguments, in order.
  B.SetInsertPoint(RevReturn);
  flushPrivateAdjoints(B);
  Type *RetTy = Rev->getReturnType();
  if (RetTy->isVoidTy()) {
    B.CreateRetVoid();
  } else {
    Value *Result = UndefValue::get(RetTy);
    unsigned Field = 0;
    for (Argument &A : Prep.args()) {
      if (Sig.Args[A.getArgNo()] != Activity::Out)
        continue;
      Type *Ty = derivativeType(A.getType());
      Value *G = B.CreateLoad(Ty, adjointSlot(&A));
      // A gradient nothing flowed into is +0.0, not the identity -0.0.
      G = addAdjoints(B, G, Constant::getNullValue(Ty));
      Result = B.CreateInsertValue(Result, G, Field++);
    }
    B.CreateRet(Result);
  }
  return Failure->Message.empty();
}

} // namespace enzyme
