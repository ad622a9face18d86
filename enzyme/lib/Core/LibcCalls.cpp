//===- LibcCalls.cpp - C library calls in generated code ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/LibcCalls.h"
#include "Core/GpuTarget.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"

using namespace llvm;

namespace enzyme {

/// Declares the C library function \p Name with the attributes LLVM gives
/// it (a fresh, noalias result for calloc, nocapture for free...), which the
/// module's own attribute inference, long over when the engine runs, did
/// not add: without them every shadow allocation looked like it might alias
/// the caller's arrays.
static FunctionCallee declare(IRBuilder<> &B, StringRef Name, Type *Ret,
                              ArrayRef<Type *> Params) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    TargetLibraryInfoImpl Impl(Triple(M.getTargetTriple()));
    TargetLibraryInfo TLI(Impl);
    inferNonMandatoryLibFuncAttrs(*F, TLI);
    // Not all of them are LLVM library functions (malloc_usable_size is
    // not): none throws, and a call that might would be guarded
    // (Modes/ExceptionGuards.h).
    F->setDoesNotThrow();
  }
  return Callee;
}

Value *emitCalloc(IRBuilder<> &B, Value *Count, Value *Size,
                  const Twine &Name) {
  Type *I64 = B.getInt64Ty();
  if (isGpuModule(*B.GetInsertBlock()->getModule())) {
    // Device code has malloc but no calloc.
    Value *Bytes = B.CreateMul(B.CreateZExtOrTrunc(Count, I64),
                               B.CreateZExtOrTrunc(Size, I64));
    Value *Ptr = emitMalloc(B, Bytes, Name);
    B.CreateMemSet(Ptr, B.getInt8(0), Bytes, MaybeAlign());
    return Ptr;
  }
  return B.CreateCall(
      declare(B, "calloc", B.getPtrTy(), {I64, I64}),
      {B.CreateZExtOrTrunc(Count, I64), B.CreateZExtOrTrunc(Size, I64)}, Name);
}

Value *emitMalloc(IRBuilder<> &B, Value *Size, const Twine &Name) {
  Type *I64 = B.getInt64Ty();
  return B.CreateCall(declare(B, "malloc", B.getPtrTy(), {I64}),
                      {B.CreateZExtOrTrunc(Size, I64)}, Name);
}

Value *emitRealloc(IRBuilder<> &B, Value *Ptr, Value *Size) {
  Type *I64 = B.getInt64Ty();
  return B.CreateCall(declare(B, "realloc", B.getPtrTy(), {B.getPtrTy(), I64}),
                      {Ptr, B.CreateZExtOrTrunc(Size, I64)});
}

void emitDeviceTrap(IRBuilder<> &B, StringRef Message) {
  Value *Text = B.CreateGlobalString(Message, "enzyme.device.message", 4);
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  B.CreateCall(
      M.getOrInsertFunction(
          "vprintf", FunctionType::get(B.getInt32Ty(), {Ptr, Ptr}, false)),
      {B.CreateAddrSpaceCast(Text, Ptr), Constant::getNullValue(Ptr)});
  B.CreateIntrinsic(Intrinsic::trap, {}, {});
  B.CreateUnreachable();
}

void emitFree(IRBuilder<> &B, Value *Ptr) {
  B.CreateCall(declare(B, "free", B.getVoidTy(), {B.getPtrTy()}), {Ptr});
}

Value *emitMallocUsableSize(IRBuilder<> &B, Value *Ptr) {
  return B.CreateCall(
      declare(B, "malloc_usable_size", B.getInt64Ty(), {B.getPtrTy()}), {Ptr});
}

} // namespace enzyme
