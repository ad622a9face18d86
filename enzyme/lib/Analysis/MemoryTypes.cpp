//===- MemoryTypes.cpp - What kind of values memory holds -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryTypes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace enzyme {

/// The type a TBAA access tag names, when it is a C floating-point type.
static Type *typeFromTBAA(const Instruction &I) {
  MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 2)
    return nullptr;
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Access || Access->getNumOperands() < 1)
    return nullptr;
  auto *Name = dyn_cast<MDString>(Access->getOperand(0));
  if (!Name)
    return nullptr;
  LLVMContext &Ctx = I.getContext();
  if (Name->getString() == "double")
    return Type::getDoubleTy(Ctx);
  if (Name->getString() == "float")
    return Type::getFloatTy(Ctx);
  return nullptr;
}

Type *inferFloatElementType(Value *Dst, Value *Src, const Instruction *Access) {
  if (Access)
    if (Type *Ty = typeFromTBAA(*Access))
      return Ty;
  for (Value *Ptr : {Dst, Src}) {
    if (!Ptr)
      continue;
    Value *Base = getUnderlyingObject(Ptr);
    for (User *U : Base->users()) {
      Type *Ty = nullptr;
      if (auto *L = dyn_cast<LoadInst>(U))
        Ty = L->getType();
      else if (auto *S = dyn_cast<StoreInst>(U))
        Ty = S->getValueOperand()->getType();
      else if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
        Ty = GEP->getResultElementType();
      if (Ty && Ty->isFloatingPointTy())
        return Ty;
    }
  }
  return nullptr;
}

SmallVector<std::pair<int64_t, Type *>, 8>
CopyLayout::slotsWithin(uint64_t Length,
                        function_ref<bool(Type *)> Want) const {
  SmallVector<std::pair<int64_t, Type *>, 8> Result;
  for (const auto &[Offset, Ty] : Slots) {
    int64_t At = Offset;
    if (Want(Ty) && At >= 0 && uint64_t(At) < Length &&
        none_of(Result, [At](const auto &S) { return S.first == At; }))
      Result.emplace_back(At, Ty);
  }
  return Result;
}

CopyLayout analyzeCopyLayout(Value *Dst, Value *Src, Function &F) {
  const DataLayout &DL = F.getDataLayout();
  CopyLayout Layout;
  for (Value *End : {Dst, Src}) {
    int64_t EndOffset = 0;
    Value *Base = GetPointerBaseWithConstantOffset(End, EndOffset, DL);
    for (Instruction &I : instructions(F)) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      int64_t Offset = 0;
      if (GetPointerBaseWithConstantOffset(Ptr, Offset, DL) != Base)
        continue;
      Type *Ty = getLoadStoreType(&I);
      Layout.HasPointers |= Ty->isPointerTy();
      Layout.HasFloats |= Ty->isFloatingPointTy();
      Layout.Slots.emplace_back(Offset - EndOffset, Ty);
    }
  }
  return Layout;
}

} // namespace enzyme
