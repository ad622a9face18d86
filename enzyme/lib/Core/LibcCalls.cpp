//===- LibcCalls.cpp - C library calls in generated code ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/LibcCalls.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

static FunctionCallee declare(IRBuilder<> &B, StringRef Name, Type *Ret,
                              ArrayRef<Type *> Params) {
  Module &M = *B.GetInsertBlock()->getModule();
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

Value *emitCalloc(IRBuilder<> &B, Value *Count, Value *Size,
                  const Twine &Name) {
  Type *I64 = B.getInt64Ty();
  return B.CreateCall(
      declare(B, "calloc", B.getPtrTy(), {I64, I64}),
      {B.CreateZExtOrTrunc(Count, I64), B.CreateZExtOrTrunc(Size, I64)}, Name);
}

Value *emitRealloc(IRBuilder<> &B, Value *Ptr, Value *Size) {
  Type *I64 = B.getInt64Ty();
  return B.CreateCall(declare(B, "realloc", B.getPtrTy(), {B.getPtrTy(), I64}),
                      {Ptr, B.CreateZExtOrTrunc(Size, I64)});
}

void emitFree(IRBuilder<> &B, Value *Ptr) {
  B.CreateCall(declare(B, "free", B.getVoidTy(), {B.getPtrTy()}), {Ptr});
}

Value *emitMallocUsableSize(IRBuilder<> &B, Value *Ptr) {
  return B.CreateCall(
      declare(B, "malloc_usable_size", B.getInt64Ty(), {B.getPtrTy()}), {Ptr});
}

} // namespace enzyme
