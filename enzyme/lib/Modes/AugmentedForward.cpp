//===- AugmentedForward.cpp - The forward half of reverse mode ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The augmented forward function is a copy of the prepared function that
/// also builds shadow pointers next to the primal ones, gives new memory a
/// zeroed shadow, mirrors stores of pointers into shadow memory, calls the
/// augmented functions of its callees, and pushes on the tape what the plan
/// says the reverse pass needs.
///
//===----------------------------------------------------------------------===//

#include "Modes/FunctionDifferentiator.h"
#include "Modes/RecordCopies.h"

#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Analysis/TripCount.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/GpuTarget.h"
#include "Core/LibcCalls.h"
#include "Core/RuntimeLibrary.h"
#include "Core/ScratchShadows.h"
#include "Core/ShadowMemory.h"
#include "Modes/ShadowAddresses.h"
#include "Modes/UntypedCopyGuards.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

Value *FunctionDifferentiator::augmentedShadow(Value *V) {
  auto It = AugShadows.find(V);
  if (It != AugShadows.end())
    return It->second;
  // A global whose shadow the user declared (or an address within it);
  // other constants (null, undef, inactive globals) have a null shadow.
  if (auto *C = dyn_cast<Constant>(V))
    return constantShadowOf(C, *Pair.Augmented);
  return Constant::getNullValue(derivativeType(V->getType()));
}

Value *FunctionDifferentiator::constantShadowOf(Constant *C, Function &In) {
  Constant *S = constantShadow(C);
  // A global whose shadow the request's context keeps (width 1 only).
  if (!S && Sig.ContextShadows)
    if (Value *Kept = ContextShadows.shadowOf(In, C))
      return Kept;
  if (!S)
    return Constant::getNullValue(derivativeType(C->getType()));
  if (Sig.Width == 1)
    return S;
  // One declared shadow cannot hold the adjoints of N directions.
  fail(nullptr, "a global with a declared shadow (enzyme_shadow) is used in "
                "vector reverse mode (enzyme_width " +
                    Twine(Sig.Width) +
                    "), which needs one shadow per direction; compute the "
                    "gradients one seed at a time");
  return PoisonValue::get(derivativeType(C->getType()));
}

/// A shadow access made by cloning a primal one touches other memory: the
/// primal's alias scopes (the tape's, a generated function's shadow-versus-
/// primal scopes, when the engine differentiates code it generated) do not
/// hold for it.
bool FunctionDifferentiator::waitsForTargets(const Value *V) const {
  const auto *Call = dyn_cast<CallBase>(V);
  return Call && Call->isIndirectCall() && Gen.defersIndirectCalls();
}

static void dropAliasScopes(Instruction &I) {
  I.setMetadata(LLVMContext::MD_alias_scope, nullptr);
  I.setMetadata(LLVMContext::MD_noalias, nullptr);
}

Value *FunctionDifferentiator::createAllocationShadow(CallBase &Call,
                                                      IRBuilder<> &B) {
  auto *AugCall = cast<CallBase>(AugValues[&Call]);
  auto PerLane = [&](ArrayRef<Value *> Shadows,
                     function_ref<Value *(ArrayRef<Value *>)> Make) {
    return mapLanes(B, Sig.Width, Shadows, Call.getType(), Make);
  };
  StringRef Name = Call.getCalledFunction()->getName();
  if (Name == "calloc")
    return PerLane({}, [&](ArrayRef<Value *>) {
      return emitCalloc(B, AugCall->getArgOperand(0), AugCall->getArgOperand(1),
                        "shadow.mem");
    });
  if (Name == "realloc")
    return PerLane({augmentedShadow(Call.getArgOperand(0))},
                   [&](ArrayRef<Value *> Old) -> Value * {
                     return B.CreateCall(
                         getShadowRealloc(*Prep.getParent()),
                         {Old[0], B.CreateZExtOrTrunc(AugCall->getArgOperand(1),
                                                      B.getInt64Ty())},
                         "shadow.mem");
                   });
  // malloc(n), aligned_alloc(a, n), operator new(n, ...), a user's
  // allocator: the size operand.
  Value *Size = AugCall->getArgOperand(allocationSizeOperand(Call));
  Value *Bytes = B.CreateZExtOrTrunc(Size, B.getInt64Ty());
  Value *Alignment = nullptr;
  if (std::optional<unsigned> Op = allocationAlignmentOperand(Call))
    Alignment = AugCall->getArgOperand(*Op);
  return PerLane({}, [&](ArrayRef<Value *>) {
    return createZeroedShadowMemory(B, Bytes, Alignment, allocatorFamily(Call));
  });
}

Value *FunctionDifferentiator::createShadow(Instruction &I, IRBuilder<> &B) {
  auto *AugI = cast<Instruction>(AugValues[&I]);
  const DataLayout &DL = Prep.getDataLayout();
  // Each direction has shadow memory of its own.
  auto PerLane = [&](ArrayRef<Value *> Shadows,
                     function_ref<Value *(ArrayRef<Value *>)> Make) {
    return mapLanes(B, Sig.Width, Shadows, I.getType(), Make);
  };
  if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
    // The reverse pass runs after this frame is gone, so the shadow of a
    // stack object lives on the heap until its reverse frees it, at the
    // local's address modulo 64 (ShadowMemory.h).
    Value *Bytes = B.getInt64(
        DL.getTypeAllocSize(Alloca->getAllocatedType()).getFixedValue());
    if (Alloca->isArrayAllocation())
      Bytes = B.CreateMul(
          Bytes, B.CreateZExtOrTrunc(cast<AllocaInst>(AugI)->getArraySize(),
                                     B.getInt64Ty()));
    return PerLane({}, [&](ArrayRef<Value *>) {
      return createShadowOfLocal(B, AugI, Bytes, Alloca->getAlign());
    });
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (!isAllocationCall(*Call))
      return nullptr;
    Value *Shadow = createAllocationShadow(*Call, B);
    // A block that may be freed by another function: its shadow is freed
    // when the sweep ends (Core/ShadowMemory.h).
    if (mayBeFreedElsewhere(*Call))
      forEachLane(B, Sig.Width, {Shadow},
                  [&](ArrayRef<Value *> Lane, unsigned) {
                    recordEscapingShadow(B, Lane[0]);
                  });
    return Shadow;
  }
  // An address computed as an integer (a buffer aligned by hand): the
  // same arithmetic on the shadow's address (ShadowAddresses.h).
  if (isa<IntToPtrInst>(I))
    if (const Value *Base = addressArithmeticBase(I.getOperand(0)))
      return PerLane({augmentedShadow(const_cast<Value *>(Base))},
                     [&](ArrayRef<Value *> S) {
                       return shadowOfAddressArithmetic(
                           B, AugI->getOperand(0), S[0], I.getType(),
                           I.getName() + ".shadow");
                     });
  // A pointer loaded as an integer (a lowered one-pointer memcpy): its
  // shadow is the integer loaded from the shadow memory.
  if (auto *Load = integerLoadOfPointer(I))
    return PerLane({loadShadowBits(*Load, B)}, [&](ArrayRef<Value *> Bits) {
      return B.CreateIntToPtr(retagShadowBits(B, AugI->getOperand(0), Bits[0]),
                              I.getType(), I.getName() + ".shadow");
    });
  if (auto *Select = dyn_cast<SelectInst>(&I))
    return selectShadow(*Select, B);
  // A pointer loaded from memory with derivatives whose shadow there is
  // null has none: a scratch one (Core/ScratchShadows.h).
  if (auto *Load = dyn_cast<LoadInst>(&I);
      Load &&
      (Load->getType()->isPointerTy() || Load->getType()->isAggregateType()) &&
      canLinkRuntime(*Prep.getParent())) {
    Value *Shadows = PerLane({augmentedShadow(Load->getPointerOperand())},
                             [&](ArrayRef<Value *> S) {
                               Instruction *L = AugI->clone();
                               L->setName(I.getName() + ".shadow");
                               dropAliasScopes(*L);
                               L->setOperand(0, S[0]);
                               return B.Insert(L);
                             });
    return scratchShadowsIfNull(B, Shadows, AugI, Sig.Width);
  }
  // Pointer arithmetic, casts, selects, loads of pointers, and moves of
  // pointers in and out of aggregates and vectors repeat on the shadow side
  // with shadow operands; indices and other fields stay as they are.
  if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
      isa<LoadInst>(I) || isa<FreezeInst>(I) || isa<ExtractValueInst>(I) ||
      isa<InsertValueInst>(I) || isa<ExtractElementInst>(I) ||
      isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I)) {
    SmallVector<unsigned, 2> PointerOperands;
    SmallVector<Value *, 2> Shadows;
    for (unsigned Op = 0; Op < I.getNumOperands(); ++Op) {
      Value *PrepOp = I.getOperand(Op);
      if (carriesPointers(PrepOp->getType())) {
        PointerOperands.push_back(Op);
        // A pointer put into an aggregate or vector with a shadow needs one
        // there (Core/ScratchShadows.h).
        bool Inserted =
            Op <= 1 && (isa<InsertValueInst>(I) || isa<InsertElementInst>(I));
        Shadows.push_back(Inserted ? shadowOrScratch(PrepOp, B)
                                   : augmentedShadow(PrepOp));
      }
    }
    return PerLane(Shadows, [&](ArrayRef<Value *> Lane) {
      Instruction *S = AugI->clone();
      S->setName(I.getName() + ".shadow");
      dropAliasScopes(*S);
      for (auto [Op, Shadow] : zip(PointerOperands, Lane))
        S->setOperand(Op, Shadow);
      return B.Insert(S);
    });
  }
  return nullptr;
}

Value *FunctionDifferentiator::loadShadowBits(LoadInst &Load, IRBuilder<> &B) {
  return mapLanes(B, Sig.Width, {augmentedShadow(Load.getPointerOperand())},
                  Load.getType(), [&](ArrayRef<Value *> Ptr) {
                    return B.CreateAlignedLoad(Load.getType(), Ptr[0],
                                               Load.getAlign(),
                                               Load.getName() + ".shadow");
                  });
}

bool FunctionDifferentiator::checkChoiceOfShadows(Instruction &I) {
  // With the run-time, a choice without a shadow gets a scratch one.
  if (canLinkRuntime(*Prep.getParent()))
    return true;
  const Value *Choice = Activity.unshadowedChoice(I);
  return !Choice || fail(&I, describeUnshadowedChoice(*Choice));
}

bool FunctionDifferentiator::takesScratchShadow(const Value *V) const {
  return Activity.needsScratchShadow(V) && canLinkRuntime(*Prep.getParent());
}

Value *FunctionDifferentiator::augmentedValue(Value *V) {
  return isa<Constant>(V) ? V : static_cast<Value *>(AugValues.lookup(V));
}

Value *FunctionDifferentiator::shadowOrScratch(Value *V, IRBuilder<> &B) {
  if (!takesScratchShadow(V))
    return augmentedShadow(V);
  return createScratchShadow(B, augmentedValue(V), Sig.Width);
}

Value *FunctionDifferentiator::selectShadow(SelectInst &Select,
                                            IRBuilder<> &B) {
  auto *AugSelect = cast<SelectInst>(AugValues[&Select]);
  Value *Cond = AugSelect->getCondition();
  // A side without a shadow gets a scratch one only when it is taken.
  auto Side = [&](Value *V, bool OnTrue) -> Value * {
    if (!takesScratchShadow(V))
      return augmentedShadow(V);
    return createScratchShadowOfSide(B, Cond, augmentedValue(V), OnTrue,
                                     Sig.Width);
  };
  Value *True = Side(Select.getTrueValue(), true);
  Value *False = Side(Select.getFalseValue(), false);
  return mapLanes(B, Sig.Width, {True, False}, Select.getType(),
                  [&](ArrayRef<Value *> Lane) {
                    return B.CreateSelect(Cond, Lane[0], Lane[1],
                                          Select.getName() + ".shadow");
                  });
}

bool FunctionDifferentiator::augmentMemoryTransfer(MemTransferInst &Mem) {
  if (!Activity.isShadowed(Mem.getDest()))
    return true;
  if (!Activity.isShadowed(Mem.getSource())) {
    // Pointers copied from memory without derivatives into memory with
    // them need shadows there: scratch ones.
    auto *Length = dyn_cast<ConstantInt>(Mem.getLength());
    if (!Length || !canLinkRuntime(*Prep.getParent()))
      return true;
    CopyLayout Layout = analyzeCopyLayout(Mem.getDest(), Mem.getSource(), Prep,
                                          Sig.Fn, Length->getZExtValue(), &Mem);
    if (!Layout.HasPointers)
      return true;
    auto *AugMem = cast<MemTransferInst>(AugValues[&Mem]);
    IRBuilder<> B(AugMem->getNextNode());
    SmallVector<Value *, 4> Shadows;
    forEachLane(
        B, Sig.Width, {augmentedShadow(Mem.getDest())},
        [&](ArrayRef<Value *> Lane, unsigned) { Shadows.push_back(Lane[0]); });
    storeScratchShadowsOfCopiedPointers(
        B, AugMem->getDest(), Shadows,
        Layout.slotsWithin(Length->getZExtValue(),
                           [](Type *T) { return T->isPointerTy(); }));
    return true;
  }
  if (UntypedCopies.count(&Mem)) {
    auto *AugMem = cast<MemTransferInst>(AugValues[&Mem]);
    IRBuilder<> B(AugMem);
    forEachLane(
        B, Sig.Width,
        {augmentedShadow(Mem.getDest()), augmentedShadow(Mem.getSource())},
        [&](ArrayRef<Value *> Lane, unsigned) {
          checkUntypedCopyShadows(B, Lane[0], Lane[1], AugMem->getLength(),
                                  *Sig.Fn, AugMem->getDebugLoc());
        });
    return true;
  }
  const CopyLayout &Layout = CopyLayouts.find(&Mem)->second;
  if (!Layout.HasPointers)
    return true; // Floats: the reverse pass moves their adjoints.
  // Shadow memory mirrors the primal's pointers, so copied pointers take
  // their shadows along; copied floats' shadows must not move forward (they
  // hold the adjoints the caller seeded).
  auto *AugMem = cast<MemTransferInst>(AugValues[&Mem]);
  IRBuilder<> B(AugMem->getNextNode());
  Value *Dst = augmentedShadow(Mem.getDest());
  Value *Src = augmentedShadow(Mem.getSource());
  auto *Length = dyn_cast<ConstantInt>(Mem.getLength());
  if (Layout.HasFloats && !Length) {
    // Element by element, as the plan laid them out.
    Function *Copy =
        getRecordShadowCopy(*Prep.getParent(), ElementRecords.at(&Mem));
    Value *Bytes = B.CreateZExtOrTrunc(AugMem->getLength(), B.getInt64Ty());
    forEachLane(B, Sig.Width, {Dst, Src},
                [&](ArrayRef<Value *> Lane, unsigned) {
                  B.CreateCall(Copy, {Lane[0], Lane[1], Bytes});
                });
    return true;
  }
  forEachLane(B, Sig.Width, {Dst, Src}, [&](ArrayRef<Value *> Lane, unsigned) {
    if (!Layout.HasFloats) {
      // A memmove's ranges may overlap (a vector's erase).
      if (isa<MemMoveInst>(Mem))
        B.CreateMemMove(Lane[0], MaybeAlign(), Lane[1], MaybeAlign(),
                        AugMem->getLength());
      else
        B.CreateMemCpy(Lane[0], MaybeAlign(), Lane[1], MaybeAlign(),
                       AugMem->getLength());
      return;
    }
    // All loads before the stores, as a copy of overlapping ranges reads.
    SmallVector<std::pair<Value *, Value *>, 4> Moved;
    for (auto [Offset, Ty] :
         Layout.slotsWithin(Length->getZExtValue(),
                            [](Type *T) { return T->isPointerTy(); })) {
      Value *From =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Lane[1], Offset);
      Value *To = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Lane[0], Offset);
      Moved.emplace_back(B.CreateLoad(Ty, From), To);
    }
    for (auto [Loaded, To] : Moved)
      B.CreateStore(Loaded, To);
  });
  return true;
}

bool FunctionDifferentiator::augmentCall(CallBase &Call) {
  if (auto *Mem = dyn_cast<MemTransferInst>(&Call))
    return augmentMemoryTransfer(*Mem);
  auto *AugCall = cast<CallBase>(AugValues[&Call]);
  if (classifyCall(Call) != CallKind::Differentiated)
    return true;
  ReverseSignature CalleeSig;
  const ReversePair *Callee = calleePair(Call, CalleeSig);
  if (!Callee) {
    Failure->locateAt(Call);
    return false;
  }
  IRBuilder<> B(AugCall);
  SmallVector<Value *, 8> Args;
  if (!CalleeSig.Fn) // The dispatcher takes the pointer first.
    Args.push_back(AugCall->getCalledOperand());
  Args.append(AugCall->arg_begin(), AugCall->arg_end());
  for (unsigned A = 0; A < Call.arg_size(); ++A)
    if (hasShadow(CalleeSig.Args[A]))
      Args.push_back(augmentedShadow(Call.getArgOperand(A)));
  Args.push_back(calleeTape(Call, AugTape, B));
  CallInst *NewCall = B.CreateCall(Callee->Augmented, Args);
  NewCall->setDebugLoc(AugCall->getDebugLoc());
  Value *Primal = NewCall;
  if (CalleeSig.ReturnShadow) {
    Primal = B.CreateExtractValue(NewCall, 0);
    AugShadows[&Call] =
        B.CreateExtractValue(NewCall, 1, Call.getName() + ".shadow");
  }
  if (!AugCall->getType()->isVoidTy())
    AugCall->replaceAllUsesWith(Primal);
  AugValues[&Call] = Primal;
  AugCall->eraseFromParent();
  return true;
}

/// Calls \p Visit with the index path and byte offset of every field of
/// \p Ty that holds pointers (a pointer or a vector of them).
static void
forEachPointerField(Type *Ty, const DataLayout &DL, uint64_t Offset,
                    SmallVectorImpl<unsigned> &Path,
                    function_ref<void(ArrayRef<unsigned>, uint64_t)> Visit) {
  if (Ty->isPtrOrPtrVectorTy()) {
    Visit(Path, Offset);
    return;
  }
  auto Field = [&](Type *FieldTy, unsigned Index, uint64_t At) {
    Path.push_back(Index);
    forEachPointerField(FieldTy, DL, At, Path, Visit);
    Path.pop_back();
  };
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(ST);
    for (auto [Index, FieldTy] : enumerate(ST->elements()))
      Field(FieldTy, Index, Offset + Layout->getElementOffset(Index));
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    for (unsigned Index = 0; Index < AT->getNumElements(); ++Index)
      Field(AT->getElementType(), Index, Offset + Index * Size);
  }
}

UndefinedShadow
FunctionDifferentiator::undefinedShadowAt(const Value *Ptr) const {
  if (!SharedShadowsStartUndefined)
    return UndefinedShadow::No;
  unsigned Space = Ptr->getType()->getPointerAddressSpace();
  if (Space != 0)
    return Space == SharedAddressSpace ? UndefinedShadow::Yes
                                       : UndefinedShadow::No;
  // Only CUDA code can ask at run time (isspacep.shared).
  UndefinedShadow UnknownAddress = isCudaModule(*Prep.getParent())
                                       ? UndefinedShadow::Maybe
                                       : UndefinedShadow::No;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  bool Yes = false, No = false;
  for (const Value *Object : Objects) {
    UndefinedShadow State = UndefinedShadow::Maybe;
    if (const auto *GV = dyn_cast<GlobalVariable>(Object))
      State = shadowStartsUndefined(*GV) ? UndefinedShadow::Yes
                                         : UndefinedShadow::No;
    else if (isa<AllocaInst>(Object) || isa<ConstantPointerNull>(Object))
      State = UndefinedShadow::No;
    else if (const auto *Arg = dyn_cast<Argument>(Object))
      // The request's own arguments come with the caller's shadows.
      State = Arg->getArgNo() < Sig.UndefinedShadowArgs.size()
                  ? Sig.UndefinedShadowArgs[Arg->getArgNo()]
                  : UndefinedShadow::No;
    if (State == UndefinedShadow::Maybe)
      return UnknownAddress;
    (State == UndefinedShadow::Yes ? Yes : No) = true;
  }
  return Yes && No ? UnknownAddress
         : Yes     ? UndefinedShadow::Yes
                   : UndefinedShadow::No;
}

void FunctionDifferentiator::zeroUndefinedShadowAt(StoreInst &Store) {
  Value *Ptr = Store.getPointerOperand();
  UndefinedShadow State = undefinedShadowAt(Ptr);
  if (State == UndefinedShadow::No || !Activity.isShadowed(Ptr))
    return;
  // The location's adjoint starts at zero where its value is defined
  // (GlobalShadows.h): what the reverse pass adds to it then is all there is.
  auto *AugStore = cast<StoreInst>(AugValues[&Store]);
  IRBuilder<> B(AugStore->getNextNode());
  Type *Ty = Store.getValueOperand()->getType();
  uint64_t Bytes = Prep.getDataLayout().getTypeStoreSize(Ty);
  forEachLane(B, Sig.Width, {augmentedShadow(Ptr)},
              [&](ArrayRef<Value *> Lane, unsigned) {
                if (State == UndefinedShadow::Maybe)
                  emitZeroShadowIfShared(B, AugStore->getPointerOperand(),
                                         Lane[0], Bytes);
                else
                  B.CreateAlignedStore(Constant::getNullValue(Ty), Lane[0],
                                       AugStore->getAlign());
              });
}

bool FunctionDifferentiator::augmentStore(StoreInst &Store) {
  Value *Ptr = Store.getPointerOperand();
  Value *Val = Store.getValueOperand();
  if (UntypedCopies.count(&Store)) {
    auto *AugStore = cast<StoreInst>(AugValues[&Store]);
    IRBuilder<> B(AugStore);
    Value *Source = cast<LoadInst>(Val)->getPointerOperand();
    Value *Bytes =
        B.getInt64(Prep.getDataLayout().getTypeStoreSize(Val->getType()));
    forEachLane(B, Sig.Width, {augmentedShadow(Ptr), augmentedShadow(Source)},
                [&](ArrayRef<Value *> Lane, unsigned) {
                  checkUntypedCopyShadows(B, Lane[0], Lane[1], Bytes, *Sig.Fn,
                                          AugStore->getDebugLoc());
                });
    return true;
  }
  zeroUndefinedShadowAt(Store);
  IntegerStoreRole::Kind Role = integerStoreRole(Store).What;
  bool PointerAsInteger = Role == IntegerStoreRole::MirrorShadows ||
                          Role == IntegerStoreRole::ScratchShadows;
  if (!(carriesPointers(Val->getType()) || PointerAsInteger) ||
      !Activity.isShadowed(Ptr))
    return true;
  // Where no scratch shadow can stand in for a pointer without one, its
  // readers would take a null shadow.
  if (!PointerAsInteger && Activity.needsScratchShadowIn(Val, Ptr) &&
      !takesScratchShadow(Val))
    return fail(&Store, describeUnshadowedPointerStored());
  if (Val->getType()->isAggregateType()) {
    // Only the pointer fields: the shadows of the others (floats' adjoints)
    // must stay as they are.
    auto *AugStore = cast<StoreInst>(AugValues[&Store]);
    IRBuilder<> B(AugStore->getNextNode());
    const DataLayout &DL = Prep.getDataLayout();
    SmallVector<unsigned, 4> Path;
    forEachLane(
        B, Sig.Width, {shadowOrScratch(Val, B), augmentedShadow(Ptr)},
        [&](ArrayRef<Value *> Lane, unsigned) {
          forEachPointerField(
              Val->getType(), DL, 0, Path,
              [&](ArrayRef<unsigned> Field, uint64_t Offset) {
                Value *To = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Lane[1],
                                                         Offset);
                StoreInst *S =
                    B.CreateStore(B.CreateExtractValue(Lane[0], Field), To);
                S->setAlignment(commonAlignment(AugStore->getAlign(), Offset));
                S->setVolatile(AugStore->isVolatile());
              });
        });
    return true;
  }
  // Shadow memory mirrors the primal's pointer structure, so loads of
  // pointers on the shadow side find the shadows.
  auto *AugStore = cast<StoreInst>(AugValues[&Store]);
  IRBuilder<> B(AugStore->getNextNode());
  Value *ShadowVal = nullptr;
  if (!PointerAsInteger)
    ShadowVal = Activity.needsScratchShadowIn(Val, Ptr)
                    ? shadowOrScratch(Val, B)
                    : augmentedShadow(Val);
  else if (Role == IntegerStoreRole::ScratchShadows)
    ShadowVal = mapLanes(
        B, Sig.Width,
        {createScratchShadow(
            B, B.CreateIntToPtr(AugStore->getValueOperand(), B.getPtrTy()),
            Sig.Width)},
        Val->getType(), [&](ArrayRef<Value *> Lane) {
          return B.CreatePtrToInt(Lane[0], Val->getType());
        });
  else if (const Value *Base = addressArithmeticBase(Val);
           Base && !isa<PtrToIntInst>(Val)) {
    Value *Int = AugStore->getValueOperand();
    ShadowVal =
        mapLanes(B, Sig.Width, {augmentedShadow(const_cast<Value *>(Base))},
                 Val->getType(), [&](ArrayRef<Value *> Lane) {
                   return B.CreatePtrToInt(
                       shadowOfAddressArithmetic(B, Int, Lane[0], B.getPtrTy(),
                                                 Val->getName() + ".shadow"),
                       Val->getType());
                 });
  } else if (LoadInst *Load = taggedBitsLoad(Val)) {
    Value *Int = AugStore->getValueOperand();
    ShadowVal = mapLanes(B, Sig.Width, {loadShadowBits(*Load, B)},
                         Val->getType(), [&](ArrayRef<Value *> Lane) {
                           return retagShadowBits(B, Int, Lane[0]);
                         });
  } else if (auto *Cast = dyn_cast<PtrToIntInst>(Val))
    ShadowVal =
        mapLanes(B, Sig.Width, {shadowOrScratch(Cast->getOperand(0), B)},
                 Val->getType(), [&](ArrayRef<Value *> Lane) {
                   return B.CreatePtrToInt(Lane[0], Val->getType());
                 });
  else // A constant: null stays null, in every direction.
    ShadowVal = mapLanes(B, Sig.Width, {}, Val->getType(),
                         [&](ArrayRef<Value *>) { return Val; });
  forEachLane(B, Sig.Width, {ShadowVal, augmentedShadow(Ptr)},
              [&](ArrayRef<Value *> Lane, unsigned) {
                StoreInst *S = B.CreateStore(Lane[0], Lane[1]);
                S->setAlignment(AugStore->getAlign());
                S->setVolatile(AugStore->isVolatile());
              });
  return true;
}

void FunctionDifferentiator::addTapePushes() {
  const TapeBuilder &Tape = Gen.tape();
  auto AugValueOf = [&](NeededValue V) -> Value * {
    Value *Val = V.getPointer();
    if (auto *BB = dyn_cast<BasicBlock>(Val))
      return AugPredIndex.lookup(BB);
    if (V.getInt())
      return augmentedShadow(Val);
    return AugValues[Val];
  };
  MapVector<BasicBlock *, SmallVector<Value *, 8>> Pushes;
  for (BasicBlock &BB : Prep) {
    SmallVector<Value *, 8> Values;
    for (NeededValue V : Batches.lookup(&BB))
      Values.push_back(AugValueOf(V));
    for (NeededValue V : loopExitPushes(&BB))
      Values.push_back(AugValueOf(V));
    if (&BB == ExitBlock)
      for (NeededValue V : ExitBatch)
        Values.push_back(AugValueOf(V));
    if (!Values.empty())
      Pushes[&BB] = std::move(Values);
  }

  if (Sig.FixedTape) {
    for (auto &[BB, Values] : Pushes) {
      auto *AugBB = cast<BasicBlock>(AugValues[BB]);
      IRBuilder<> B(AugBB->getTerminator());
      Tape.store(B, AugTape, FixedBatchOffsets.lookup(BB), Values);
    }
    return;
  }

  // Only CUDA threads size their tapes by it (Core/Tape.h).
  if (isCudaModule(*Prep.getParent()))
    if (std::optional<uint64_t> Bound = tapeBound(Pushes))
      Gen.TapeBounds[Sig] = *Bound;

  // Loops whose trip count is known on entry reserve room for their
  // pushes there, so the pushes inside skip the capacity check.
  SmallVector<std::pair<Loop *, Value *>, 4> Reservations;
  DenseSet<const Loop *> Reserved;
  for (auto &[L, Bytes] : loopPushBytes(Pushes)) {
    auto *AugPreheader = cast<BasicBlock>(AugValues[L->getLoopPreheader()]);
    IRBuilder<> B(AugPreheader->getTerminator());
    Value *Trips = emitTripCount(*L, SE, B, [&](Value *V) {
      Value *Aug = AugValues.lookup(V);
      return Aug ? Aug : V;
    });
    if (!Trips)
      continue;
    Reservations.emplace_back(L, B.CreateMul(Trips, B.getInt64(Bytes)));
    Reserved.insert(L);
  }

  DenseMap<BasicBlock *, BasicBlock *> AugTail;
  for (auto &[BB, Values] : Pushes) {
    auto *AugBB = cast<BasicBlock>(AugValues[BB]);
    IRBuilder<> B(AugBB->getTerminator());
    Tape.push(B, AugTape, Values, Reserved.count(LI.getLoopFor(BB)));
    AugTail[BB] = B.GetInsertBlock();
  }
  // After the preheader's own pushes, which the reservation must not cover.
  for (auto [L, Bytes] : Reservations) {
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Tail = AugTail.lookup(Preheader);
    if (!Tail)
      Tail = cast<BasicBlock>(AugValues[Preheader]);
    IRBuilder<> B(Tail->getTerminator());
    Tape.reserve(B, AugTape, Bytes);
  }
}

std::optional<uint64_t> FunctionDifferentiator::tapeBound(
    const MapVector<BasicBlock *, SmallVector<Value *, 8>> &Pushes) const {
  // How often a block runs in one call, at most.
  auto Runs = [&](BasicBlock *BB) -> std::optional<uint64_t> {
    uint64_t N = 1;
    for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
      unsigned Trips = SE.getSmallConstantMaxTripCount(L);
      if (!Trips || N > (1u << 20))
        return std::nullopt;
      N *= Trips;
    }
    return N;
  };
  uint64_t Bytes = 0;
  for (auto &[BB, Values] : Pushes) {
    std::optional<uint64_t> N = Runs(BB);
    if (!N)
      return std::nullopt;
    Bytes += *N * Gen.tape().batchSize(Values);
  }
  for (BasicBlock &BB : Prep)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || classifyCall(*Call) != CallKind::Differentiated)
        continue;
      ReverseSignature CalleeSig = calleeSignature(*Call);
      std::optional<uint64_t> Callee =
          CalleeSig.Fn ? Gen.tapeBound(CalleeSig) : std::nullopt;
      std::optional<uint64_t> N = Runs(&BB);
      if (!Callee || !N)
        return std::nullopt;
      Bytes += *N * *Callee;
    }
  return Bytes;
}

MapVector<Loop *, uint64_t> FunctionDifferentiator::loopPushBytes(
    const MapVector<BasicBlock *, SmallVector<Value *, 8>> &Pushes) const {
  // A loop may reserve when everything it pushes is pushed by its own
  // blocks (at most once per iteration): inner loops and callees that push
  // as well would eat into the room.
  MapVector<Loop *, uint64_t> Bytes;
  DenseSet<const Loop *> Excluded;
  for (auto &[BB, Values] : Pushes) {
    Loop *L = LI.getLoopFor(BB);
    if (!L)
      continue;
    Bytes[L] += Gen.tape().batchSize(Values);
    for (Loop *Outer = L->getParentLoop(); Outer;
         Outer = Outer->getParentLoop())
      Excluded.insert(Outer);
  }
  for (BasicBlock &BB : Prep)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && classifyCall(*Call) == CallKind::Differentiated)
        for (Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
          Excluded.insert(L);
  Bytes.remove_if([&](const std::pair<Loop *, uint64_t> &Entry) {
    return Excluded.count(Entry.first) || !Entry.first->getLoopPreheader();
  });
  return Bytes;
}

bool FunctionDifferentiator::buildAugmented() {
  Function *Aug = Pair.Augmented;
  unsigned NextArg = Prep.arg_size();
  for (Argument &A : Prep.args()) {
    AugValues[&A] = Aug->getArg(A.getArgNo());
    if (hasShadow(Sig.Args[A.getArgNo()]))
      AugShadows[&A] = Aug->getArg(NextArg++);
  }
  AugTape = Aug->getArg(NextArg);

  SmallVector<ReturnInst *, 1> Returns;
  AttributeList Declared = Aug->getAttributes();
  CloneFunctionInto(Aug, &Prep, AugValues,
                    CloneFunctionChangeType::GlobalChanges, Returns);
  // Cloning copied the prepared function's attributes, which describe its
  // memory behaviour; the augmented function also writes the tape. Keep the
  // code-generation attributes and `sret` (a struct passed by value arrives
  // as a plain pointer: the prepared caller copies it, PreparedFunction.cpp).
  AttributeList Cloned = Aug->getAttributes();
  Aug->setAttributes(Declared);
  for (unsigned A = 0; A < Prep.arg_size(); ++A)
    for (Attribute::AttrKind Kind : {Attribute::StructRet})
      if (Cloned.hasParamAttr(A, Kind))
        Aug->addParamAttr(A, Cloned.getParamAttr(A, Kind));
  // It also copied the calling convention (internal functions are often
  // fastcc after IPO), but the engine calls the augmented function with the
  // C convention: a mismatch would make every such call undefined.
  Aug->setCallingConv(CallingConv::C);

  // Shadows, in an order where operands come first; phis get their incoming
  // shadows once every block has been visited. Calls become calls of their
  // augmented functions on the way, since the shadow of a pointer a call
  // returns comes from there.
  SmallVector<std::pair<PHINode *, PHINode *>, 8> ShadowPhis;
  ReversePostOrderTraversal<Function *> RPO(&Prep);
  for (BasicBlock *BB : RPO) {
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && !isAllocationCall(*Call)) {
        const Value *Bits;
        // Through a pointer, the link may make the call direct
        // (PackedFloatLanes.h).
        if (std::optional<unsigned> Arg =
                Activity.floatBitsPassedAsInteger(*Call, Bits))
          return fail(&I, describeFloatBitsPassedAsInteger(*Call, *Arg, *Bits),
                      waitsForTargets(Call));
        if (!augmentCall(*Call))
          return false;
        continue;
      }
      if (const Value *Source = Activity.lostFloatBits(I))
        return fail(&I, describeLostFloatBits(*Source),
                    waitsForTargets(Source));
      if (const Value *Source = Activity.lostPointerBits(I))
        return fail(&I, describeLostPointerBits(*Source));
      if (const Value *Source = Activity.untypedBitsStored(I, Sig.Fn))
        return fail(&I, describeUntypedBitsStored(*Source));
      if (auto *Ret = dyn_cast<ReturnInst>(&I);
          Ret && Activity.floatBitsReturnedAsInteger(*Ret))
        return fail(&I, describeFloatBitsReturnedAsInteger(*Sig.Fn));
      if (!Activity.isShadowed(&I))
        continue;
      if (!checkChoiceOfShadows(I))
        return false;
      auto *AugI = cast<Instruction>(AugValues[&I]);
      if (auto *Phi = dyn_cast<PHINode>(&I)) {
        IRBuilder<> B(AugI);
        PHINode *S = B.CreatePHI(derivativeType(Phi->getType()),
                                 Phi->getNumIncomingValues(),
                                 Phi->getName() + ".shadow");
        ShadowPhis.emplace_back(Phi, S);
        AugShadows[Phi] = S;
        continue;
      }
      IRBuilder<> B(AugI->getNextNode());
      if (Value *S = createShadow(I, B))
        AugShadows[&I] = S;
      else
        return fail(&I, "cannot build the shadow of this pointer");
    }
  }
  for (auto [Phi, S] : ShadowPhis)
    for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In) {
      auto *From = cast<BasicBlock>(AugValues[Phi->getIncomingBlock(In)]);
      IRBuilder<> B(From->getTerminator());
      S->addIncoming(shadowOrScratch(Phi->getIncomingValue(In), B), From);
    }

  for (BasicBlock *BB : RPO)
    for (Instruction &I : *BB)
      if (auto *Store = dyn_cast<StoreInst>(&I); Store && !augmentStore(*Store))
        return false;

  // Which predecessor the forward pass came from, for the reverse branch.
  for (BasicBlock &BB : Prep) {
    auto Batch = Batches.find(&BB);
    if (Batch == Batches.end() || !Batch->second.count(NeededValue(&BB, false)))
      continue;
    auto *AugBB = cast<BasicBlock>(AugValues[&BB]);
    IRBuilder<> B(AugBB, AugBB->getFirstNonPHIIt());
    SmallVector<BasicBlock *, 4> Preds = uniquePredecessors(&BB);
    PHINode *Index = B.CreatePHI(B.getInt32Ty(), Preds.size(), "pred.index");
    for (auto [I, P] : enumerate(Preds)) {
      auto *AugP = cast<BasicBlock>(AugValues[P]);
      // A predecessor that branches here on several edges needs one entry
      // per edge.
      for (BasicBlock *Succ : successors(AugP))
        if (Succ == AugBB)
          Index->addIncoming(B.getInt32(I), AugP);
    }
    AugPredIndex[&BB] = Index;
  }

  // The shadow of a returned pointer travels with it.
  // (A function without an exit block has no return to carry it.)
  if (Sig.ReturnShadow && ExitBlock) {
    auto *PrepReturn = cast<ReturnInst>(ExitBlock->getTerminator());
    Value *PrepRet = PrepReturn->getReturnValue();
    if (PrepRet && Activity.needsScratchShadow(PrepRet) &&
        !takesScratchShadow(PrepRet))
      return fail(PrepReturn, returnedWithoutShadow(Prep));
    for (ReturnInst *Ret : Returns) {
      IRBuilder<> B(Ret);
      Value *Pair = UndefValue::get(Aug->getReturnType());
      Pair = B.CreateInsertValue(Pair, Ret->getReturnValue(), 0);
      Pair = B.CreateInsertValue(Pair, shadowOrScratch(PrepRet, B), 1);
      B.CreateRet(Pair);
      Ret->eraseFromParent();
    }
  }

  addTapePushes();
  // Blocks the reverse pass reloads from stay allocated until it frees them.
  for (CallBase *Block : KeptAllocations)
    for (CallInst *Free : Unmodified.frees(*Block))
      cast<Instruction>(AugValues[Free])->eraseFromParent();
  return true;
}

} // namespace enzyme
