//===- ShadowMemory.cpp - Allocating shadow memory ------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ShadowMemory.h"
#include "Core/LibcCalls.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

Value *createZeroedShadowMemory(IRBuilder<> &B, Value *Bytes) {
  return emitCalloc(B, B.getInt64(1), Bytes, "shadow.mem");
}

Function *getShadowRealloc(Module &M) {
  if (Function *F = M.getFunction("enzyme.shadow.realloc"))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *F = Function::Create(FunctionType::get(Ptr, {Ptr, I64}, false),
                             GlobalValue::InternalLinkage,
                             "enzyme.shadow.realloc", M);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Old = F->getArg(0), *Size = F->getArg(1);
  Value *New = createZeroedShadowMemory(B, Size);
  Value *OldSize = emitMallocUsableSize(B, Old);
  Value *Copy = B.CreateBinaryIntrinsic(Intrinsic::umin, OldSize, Size);
  B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(), Copy);
  B.CreateRet(New);
  return F;
}

} // namespace enzyme
