//===- ScratchShadows.cpp - Zeroed shadows of memory without them ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ScratchShadows.h"
#include "Analysis/ActivityAnalysis.h"
#include "Core/Lanes.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

static constexpr const char *ScratchShadowName = "__enzyme_rt_scratch_shadow";
static constexpr const char *ScratchIfNullName = "__enzyme_rt_scratch_if_null";

/// The scratch shadow of \p V in direction \p Lane, of V's type.
static Value *scratchShadowInLane(IRBuilder<> &B, Value *V, unsigned Lane) {
  Type *Ty = V->getType();
  if (isa<UndefValue>(V))
    return Constant::getNullValue(Ty);
  if (Ty->isPointerTy()) {
    Module &M = *B.GetInsertBlock()->getModule();
    // A field never set (poison) may be any address, but one address.
    Value *Address = B.CreatePointerBitCastOrAddrSpaceCast(
        isa<Constant>(V) ? V : B.CreateFreeze(V), B.getPtrTy());
    Value *Shadow =
        B.CreateCall(getRuntimeFunction(M, ScratchShadowName),
                     {Address, B.getInt32(Lane)}, V->getName() + ".scratch");
    return B.CreatePointerBitCastOrAddrSpaceCast(Shadow, Ty);
  }
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    if (!VT->getElementType()->isPointerTy())
      return Constant::getNullValue(Ty);
    Value *Result = PoisonValue::get(Ty);
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Result = B.CreateInsertElement(
          Result, scratchShadowInLane(B, B.CreateExtractElement(V, I), Lane),
          I);
    return Result;
  }
  unsigned Fields = isa<StructType>(Ty)  ? Ty->getStructNumElements()
                    : isa<ArrayType>(Ty) ? Ty->getArrayNumElements()
                                         : 0;
  if (!Fields)
    return Constant::getNullValue(Ty);
  Value *Result = Constant::getNullValue(Ty);
  for (unsigned I = 0; I < Fields; ++I)
    Result = B.CreateInsertValue(
        Result, scratchShadowInLane(B, B.CreateExtractValue(V, I), Lane), I);
  return Result;
}

Value *createScratchShadow(IRBuilder<> &B, Value *V, unsigned Width) {
  if (Width == 1)
    return scratchShadowInLane(B, V, 0);
  Value *Lanes = PoisonValue::get(shadowType(V->getType(), Width));
  for (unsigned Lane = 0; Lane < Width; ++Lane)
    Lanes = insertLane(B, Lanes, scratchShadowInLane(B, V, Lane), Lane);
  return Lanes;
}

Value *createScratchShadowOfSide(IRBuilder<> &B, Value *Cond, Value *V,
                                 bool OnTrue, unsigned Width) {
  Value *Null = Constant::getNullValue(V->getType());
  Value *Taken =
      B.CreateSelect(Cond, OnTrue ? V : Null, OnTrue ? Null : V, "scratch.of");
  return createScratchShadow(B, Taken, Width);
}

/// \p Shadow in direction \p Lane, as scratchShadowsIfNull.
static Value *scratchShadowIfNull(IRBuilder<> &B, Value *Shadow, Value *Loaded,
                                  unsigned Lane) {
  Type *Ty = Loaded->getType();
  if (Ty->isPointerTy()) {
    Module &M = *B.GetInsertBlock()->getModule();
    return B.CreateCall(getRuntimeFunction(M, ScratchIfNullName),
                        {Shadow, Loaded, B.getInt32(Lane)},
                        Shadow->getName() + ".or.scratch");
  }
  // The pointer fields of an aggregate loaded whole ({ptr, ptr} returned
  // in registers, loaded from its return slot at -O0).
  unsigned Fields = isa<StructType>(Ty)  ? Ty->getStructNumElements()
                    : isa<ArrayType>(Ty) ? Ty->getArrayNumElements()
                                         : 0;
  for (unsigned I = 0; I < Fields; ++I) {
    Value *Field = B.CreateExtractValue(Loaded, I);
    if (!carriesPointers(Field->getType()))
      continue;
    Shadow = B.CreateInsertValue(
        Shadow,
        scratchShadowIfNull(B, B.CreateExtractValue(Shadow, I), Field, Lane),
        I);
  }
  return Shadow;
}

Value *scratchShadowsIfNull(IRBuilder<> &B, Value *Shadows, Value *Loaded,
                            unsigned Width) {
  if (Width == 1)
    return scratchShadowIfNull(B, Shadows, Loaded, 0);
  for (unsigned Lane = 0; Lane < Width; ++Lane)
    Shadows = insertLane(
        B, Shadows,
        scratchShadowIfNull(B, extractLane(B, Shadows, Lane), Loaded, Lane),
        Lane);
  return Shadows;
}

void storeScratchShadowsOfCopiedPointers(
    IRBuilder<> &B, Value *Dst, ArrayRef<Value *> DstShadows,
    ArrayRef<std::pair<int64_t, Type *>> PointerOffsets) {
  for (auto [Offset, Ty] : PointerOffsets) {
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Dst, Offset);
    Value *Pointer = B.CreateAlignedLoad(Ty, Slot, Align(1), "copied.ptr");
    for (auto [Lane, Shadow] : enumerate(DstShadows)) {
      Value *ShadowSlot =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Shadow, Offset);
      B.CreateAlignedStore(scratchShadowInLane(B, Pointer, Lane), ShadowSlot,
                           Align(1));
    }
  }
}

bool makesScratchShadows(const Function &F) {
  return reachesRuntimeCall(F, ScratchShadowName) ||
         reachesRuntimeCall(F, ScratchIfNullName);
}

void beginScratchShadows(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_scratch_begin"));
}

void endScratchShadows(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_scratch_end"));
}

} // namespace enzyme
