//===- TangentMemory.cpp - Tangents through memory ------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shadow memory mirrors primal memory: where the primal holds a float, the
/// shadow holds its tangent; where it holds a pointer, the shadow holds that
/// pointer's shadow. So a load reads the tangent from the shadow, a store
/// *overwrites* it (forward mode has no accumulation), a copy copies it,
/// and new memory gets a zeroed shadow that lives as long as the memory
/// (an alloca's shadow is an alloca: nothing outlives the frame).
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Core/LibcCalls.h"
#include "Core/RuntimeLibrary.h"
#include "Core/ScratchShadows.h"
#include "Core/ShadowMemory.h"
#include "Core/UserRegistrations.h"
#include "Modes/ShadowAddresses.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// Types whose values have a tangent or a shadow to store in shadow memory.
static bool hasTangentInMemory(Type *Ty) {
  if (Ty->isPointerTy() || isDifferentiableType(Ty))
    return true;
  if (auto *VT = dyn_cast<VectorType>(Ty))
    return VT->getElementType()->isPointerTy();
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), hasTangentInMemory);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return hasTangentInMemory(AT->getElementType());
  return false;
}

void TangentBuilder::differentiateAlloca(AllocaInst &Alloca, IRBuilder<> &B) {
  auto *OutAlloca = cast<AllocaInst>(primal(&Alloca));
  const DataLayout &DL = Out.getDataLayout();
  Value *Bytes = B.getInt64(
      DL.getTypeAllocSize(Alloca.getAllocatedType()).getFixedValue());
  if (Alloca.isArrayAllocation())
    Bytes = B.CreateMul(
        Bytes, B.CreateZExtOrTrunc(OutAlloca->getArraySize(), B.getInt64Ty()));
  setTangent(&Alloca, perLane(B, {}, Alloca.getType(), [&](ArrayRef<Value *>) {
    return createStackShadowOfLocal(B, OutAlloca, Bytes, Alloca.getAlign(),
                                    Alloca.getName() + ".shadow");
  }));
}

Value *TangentBuilder::loadShadowBits(LoadInst &Load, IRBuilder<> &B) {
  return perLane(B, {tangent(Load.getPointerOperand())}, Load.getType(),
                 [&](ArrayRef<Value *> Shadow) {
                   LoadInst *L = B.CreateAlignedLoad(
                       Load.getType(), Shadow[0], Load.getAlign(),
                       Load.getName() + ".shadow");
                   L->setVolatile(Load.isVolatile());
                   return L;
                 });
}

void TangentBuilder::differentiateLoad(LoadInst &Load, IRBuilder<> &B) {
  // The analysis makes a load carry a tangent only through a shadowed
  // pointer: the shadow memory holds the loaded value's tangent.
  Value *T = perLane(B, {tangent(Load.getPointerOperand())}, Load.getType(),
                     [&](ArrayRef<Value *> Shadow) {
                       LoadInst *L = B.CreateAlignedLoad(
                           Load.getType(), Shadow[0], Load.getAlign(),
                           Load.getName() + ".tangent");
                       L->setVolatile(Load.isVolatile());
                       return L;
                     });
  // A pointer whose shadow there is null has none: a scratch one
  // (Core/ScratchShadows.h).
  if ((Load.getType()->isPointerTy() || Load.getType()->isAggregateType()) &&
      carriesPointers(Load.getType()) && canLinkRuntime(*Prep.getParent()))
    T = scratchShadowsIfNull(B, T, primal(&Load), Sig.Width);
  setTangent(&Load, T);
}

void TangentBuilder::differentiateAtomicAdd(AtomicRMWInst &RMW,
                                            IRBuilder<> &B) {
  Value *Ptr = RMW.getPointerOperand();
  if (!Activity.isShadowed(Ptr))
    return; // Then the result carries no tangent either.
  // The tangents add up in shadow memory as the values do in memory; the
  // old tangent is the result's.
  Value *Old = perLane(B, {tangent(RMW.getValOperand()), tangent(Ptr)},
                       RMW.getType(), [&](ArrayRef<Value *> L) {
                         return B.CreateAtomicRMW(
                             RMW.getOperation(), L[1], L[0], RMW.getAlign(),
                             RMW.getOrdering(), RMW.getSyncScopeID());
                       });
  if (carries(&RMW))
    setTangent(&RMW, Old);
}

bool TangentBuilder::differentiateStore(StoreInst &Store, IRBuilder<> &B) {
  Value *Ptr = Store.getPointerOperand();
  Value *Val = Store.getValueOperand();
  if (!Activity.isShadowed(Ptr)) {
    if (Activity.isActive(Val))
      if (std::string Why = describeDerivativeStoredWithoutShadow(*Ptr);
          !Why.empty())
        return fail(&Store, Why);
    return true;
  }
  if (Val->getType()->isIntegerTy())
    return differentiateIntegerStore(Store, B);
  if (!hasTangentInMemory(Val->getType()))
    return true;
  // Overwrites: an inactive value stores a zero tangent (a null shadow, or
  // a scratch one where a pointer to memory without derivatives needs one;
  // without a run-time to make one, readers would take a null shadow).
  if (Activity.needsScratchShadowIn(Val, Ptr) && !takesScratchShadow(Val))
    return fail(&Store, describeUnshadowedPointerStored());
  Value *Stored = Activity.needsScratchShadowIn(Val, Ptr)
                      ? tangentOrScratch(Val, B)
                      : tangent(Val);
  forEachLane(B, {Stored, tangent(Ptr)}, [&](ArrayRef<Value *> L) {
    B.CreateAlignedStore(L[0], L[1], Store.getAlign(), Store.isVolatile());
  });
  return true;
}

bool TangentBuilder::differentiateIntegerStore(StoreInst &Store,
                                               IRBuilder<> &B) {
  Value *Val = Store.getValueOperand();
  Value *ShadowPtr = tangent(Store.getPointerOperand());
  Type *IntTy = Val->getType();
  // \p V: the tangent of the stored integer (one per direction).
  auto StoreShadow = [&](Value *V) {
    forEachLane(B, {V, ShadowPtr}, [&](ArrayRef<Value *> L) {
      B.CreateAlignedStore(L[0], L[1], Store.getAlign(), Store.isVolatile());
    });
    return true;
  };
  Value *Zero = Constant::getNullValue(tangentType(IntTy));
  // A copy between shadowed memory: the shadow's bits are the tangents of
  // the floats or the shadows of the pointers copied, whichever they are.
  if (auto *Load = dyn_cast<LoadInst>(Val)) {
    if (Activity.isShadowed(Load->getPointerOperand()))
      return StoreShadow(loadShadowBits(*Load, B));
    // From memory without derivatives: floats get a zero tangent, integers
    // do not care, and addresses get scratch shadows (a null one would be
    // read through).
    SmallVector<Instruction *, 2> Copied = {&Store, Load};
    if (!canLinkRuntime(*Prep.getParent()) ||
        classifyIntegerAccess(Copied, Sig.Fn).What !=
            IntegerAccessContents::Pointers)
      return StoreShadow(Zero);
    Value *Address = B.CreateIntToPtr(primal(Val), B.getPtrTy());
    return StoreShadow(perLane(
        B, {createScratchShadow(B, Address, Sig.Width)}, IntTy,
        [&](ArrayRef<Value *> L) { return B.CreatePtrToInt(L[0], IntTy); }));
  }
  // An address with a shadow, moved or tagged by integer arithmetic
  // (ShadowAddresses.h).
  if (const Value *Base = addressArithmeticBase(Val);
      Base && !isa<PtrToIntInst>(Val) && Activity.isShadowed(Base)) {
    Value *Int = primal(Val);
    return StoreShadow(
        perLane(B, {tangent(const_cast<Value *>(Base))}, IntTy,
                [&](ArrayRef<Value *> L) {
                  return B.CreatePtrToInt(
                      shadowOfAddressArithmetic(B, Int, L[0], B.getPtrTy(),
                                                Val->getName() + ".shadow"),
                      IntTy);
                }));
  }
  // A tagged address (flags in its low bits) copied between shadowed
  // memory: the shadow's address, with the same flags.
  if (LoadInst *Load = taggedBitsLoad(Val);
      Load && Activity.isShadowed(Load->getPointerOperand())) {
    Value *Int = primal(Val);
    return StoreShadow(
        perLane(B, {loadShadowBits(*Load, B)}, IntTy, [&](ArrayRef<Value *> L) {
          return retagShadowBits(B, Int, L[0]);
        }));
  }
  // A float or a pointer reinterpreted as an integer.
  if (auto *Cast = dyn_cast<BitCastInst>(Val))
    if (isDifferentiableType(Cast->getSrcTy()))
      return StoreShadow(perLane(
          B, {tangent(Cast->getOperand(0))}, IntTy,
          [&](ArrayRef<Value *> L) { return B.CreateBitCast(L[0], IntTy); }));
  if (auto *Cast = dyn_cast<PtrToIntInst>(Val))
    return StoreShadow(perLane(
        B, {tangentOrScratch(Cast->getOperand(0), B)}, IntTy,
        [&](ArrayRef<Value *> L) { return B.CreatePtrToInt(L[0], IntTy); }));
  // A constant: zero bits are a zero tangent and a null shadow alike.
  if (isa<Constant>(Val))
    return StoreShadow(Zero);
  // An integer computed by the program: what do the bytes hold?
  SmallVector<Instruction *, 1> Accesses = {&Store};
  IntegerAccessContents Contents = classifyIntegerAccess(Accesses, Sig.Fn);
  switch (Contents.What) {
  case IntegerAccessContents::Integers:
    return true;
  case IntegerAccessContents::Unknown:
    // Bits computed here carry no tangent: a zero shadow is right for
    // floats and leaves integers as they were (an address computed from
    // another is ShadowAddresses.h's).
  case IntegerAccessContents::Floats:
    return StoreShadow(Zero);
  case IntegerAccessContents::Pointers:
    break;
  }
  return fail(&Store, "cannot differentiate a pointer computed with integer "
                      "arithmetic and stored to memory with derivatives");
}

bool TangentBuilder::differentiateMemIntrinsic(MemIntrinsic &Mem,
                                               IRBuilder<> &B) {
  auto *Transfer = dyn_cast<MemTransferInst>(&Mem);
  if (!Activity.isShadowed(Mem.getDest())) {
    if (Transfer && Activity.isShadowed(Transfer->getSource()))
      if (std::string Why = describeCopyWithoutShadow(*Transfer, Prep, Sig.Fn);
          !Why.empty())
        return fail(&Mem, Why);
    return true;
  }
  auto *OutMem = cast<MemIntrinsic>(primal(&Mem));
  Value *Dst = tangent(Mem.getDest());
  Value *Len = OutMem->getLength();
  if (Transfer && Activity.isShadowed(Transfer->getSource())) {
    // The shadow of the copy is the copy of the shadow: tangents of floats
    // and shadows of pointers move alike.
    Value *Src = tangent(Transfer->getSource());
    forEachLane(B, {Dst, Src}, [&](ArrayRef<Value *> L) {
      if (isa<MemMoveInst>(Mem))
        B.CreateMemMove(L[0], Mem.getDestAlign(), L[1],
                        Transfer->getSourceAlign(), Len, Mem.isVolatile());
      else
        B.CreateMemCpy(L[0], Mem.getDestAlign(), L[1],
                       Transfer->getSourceAlign(), Len, Mem.isVolatile());
    });
    return true;
  }
  // memset, or a copy of memory without derivatives: the values written
  // carry none (and pointers written by memset are null or garbage).
  SmallVector<Value *, 4> Shadows;
  forEachLane(B, {Dst}, [&](ArrayRef<Value *> L) {
    B.CreateMemSet(L[0], B.getInt8(0), Len, Mem.getDestAlign(),
                   Mem.isVolatile());
    Shadows.push_back(L[0]);
  });
  // Pointers copied there need shadows: scratch ones.
  auto *Length = dyn_cast<ConstantInt>(Len);
  if (!Transfer || !Length || !canLinkRuntime(*Prep.getParent()))
    return true;
  CopyLayout Layout =
      analyzeCopyLayout(Mem.getDest(), Transfer->getSource(), Prep, Sig.Fn,
                        Length->getZExtValue(), Transfer);
  if (Layout.HasPointers)
    storeScratchShadowsOfCopiedPointers(
        B, OutMem->getDest(), Shadows,
        Layout.slotsWithin(Length->getZExtValue(),
                           [](Type *T) { return T->isPointerTy(); }));
  return true;
}

void TangentBuilder::differentiateAllocation(CallBase &Call, IRBuilder<> &B) {
  if (!Activity.isShadowed(&Call))
    return;
  auto *OutCall = cast<CallBase>(primal(&Call));
  StringRef Name = Call.getCalledFunction()->getName();
  // A realloc's lanes start from the old shadows; other allocations from none.
  SmallVector<Value *, 1> Old;
  if (Name == "realloc")
    Old.push_back(tangent(Call.getArgOperand(0)));
  setTangent(
      &Call,
      perLane(B, Old, Call.getType(), [&](ArrayRef<Value *> L) -> Value * {
        if (Name == "calloc")
          return emitCalloc(B, OutCall->getArgOperand(0),
                            OutCall->getArgOperand(1), "shadow.mem");
        if (Name == "realloc") {
          // A zeroed shadow of the new size holding the old shadow's
          // contents; the old shadow goes with the old block.
          Value *S =
              B.CreateCall(getShadowRealloc(*Out.getParent()),
                           {L[0], B.CreateZExtOrTrunc(OutCall->getArgOperand(1),
                                                      B.getInt64Ty())},
                           "shadow.mem");
          emitFree(B, L[0]);
          return S;
        }
        // malloc(n), aligned_alloc(a, n), operator new(n, ...), and
        // the allocators users mark allocation-like.
        std::optional<unsigned> AlignOp = allocationAlignmentOperand(Call);
        return createZeroedShadowMemory(
            B, OutCall->getArgOperand(allocationSizeOperand(Call)),
            AlignOp ? OutCall->getArgOperand(*AlignOp) : nullptr,
            allocatorFamily(Call));
      }));
}

void TangentBuilder::differentiateDeallocation(CallBase &Call, IRBuilder<> &B) {
  Value *Ptr = Call.getArgOperand(0);
  if (!Activity.isShadowed(Ptr))
    return;
  // A scratch shadow (of a block that code without derivatives allocated)
  // is the run-time's: freed only where it is not one.
  // The shadow goes as the primal goes (free, or operator delete).
  bool Runtime = canLinkRuntime(*Prep.getParent());
  AllocatorFamily Family = allocatorFamily(Call);
  Value *Alignment = nullptr;
  if (std::optional<unsigned> Op = deallocationAlignmentOperand(Call))
    Alignment = primal(Call.getArgOperand(*Op));
  forEachLane(B, {tangent(Ptr)}, [&](ArrayRef<Value *> L) {
    if (!Runtime)
      return freeShadowMemory(B, L[0], Family, Alignment);
    auto [Code, Align] = shadowReleaseArguments(B, Family, Alignment);
    B.CreateCall(
        getRuntimeFunction(*Prep.getParent(), "__enzyme_rt_free_shadow"),
        {L[0], Code, Align});
  });
}

} // namespace enzyme
