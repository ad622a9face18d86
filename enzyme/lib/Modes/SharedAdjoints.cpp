//===- SharedAdjoints.cpp - Adjoints of memory other threads read ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/SharedAdjoints.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/GpuTarget.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace enzyme {

bool readIsShared(const Value *PrimalPtr, const Module &M) {
  if (!isGpuModule(M))
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
  if (Ty->isFloatingPointTy()) {
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, Ptr, D, Alignment,
                      AtomicOrdering::Monotonic);
    return;
  }
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
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

void accumulateAdjoint(IRBuilder<> &B, Type *Ty, Value *Ptr, Value *D,
                       MaybeAlign Alignment, bool Atomic) {
  if (!Atomic) {
    plainAdd(B, Ty, Ptr, D, Alignment);
    return;
  }
  Module &M = *B.GetInsertBlock()->getModule();
  Align A = Alignment.value_or(M.getDataLayout().getABITypeAlign(Ty));
  if (!Triple(M.getTargetTriple()).isNVPTX() ||
      Ptr->getType()->getPointerAddressSpace() != 0 ||
      isa<GlobalVariable>(getUnderlyingObject(Ptr))) {
    atomicAdd(B, Ty, Ptr, D, A);
    return;
  }
  // PTX atomics through a generic address of local memory are undefined,
  // and a shadow the caller passed may be a local variable of its thread:
  // that one, only this thread sees.
  Value *IsLocal = B.CreateIntrinsic(Intrinsic::nvvm_isspacep_local, {}, {Ptr},
                                     nullptr, "shadow.is.local");
  BasicBlock *Cur = B.GetInsertBlock();
  bool AtEnd = B.GetInsertPoint() == Cur->end();
  Instruction *SplitBefore =
      AtEnd ? B.CreateUnreachable() : &*B.GetInsertPoint();
  Instruction *LocalTerm, *SharedTerm;
  SplitBlockAndInsertIfThenElse(IsLocal, SplitBefore->getIterator(), &LocalTerm,
                                &SharedTerm);
  B.SetInsertPoint(LocalTerm);
  plainAdd(B, Ty, Ptr, D, A);
  B.SetInsertPoint(SharedTerm);
  atomicAdd(B, Ty, Ptr, D, A);
  BasicBlock *Tail = SplitBefore->getParent();
  if (AtEnd) {
    SplitBefore->eraseFromParent();
    B.SetInsertPoint(Tail);
  } else {
    B.SetInsertPoint(SplitBefore);
  }
}

} // namespace enzyme
