//===- ShadowMemory.cpp - Allocating shadow memory ------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ShadowMemory.h"
#include "Core/GpuTarget.h"
#include "Core/LibcCalls.h"
#include "Core/ReusableFunctions.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// The modulus whose remainder a shadow of a local shares with it.
static uint64_t residueModulus(Align A) {
  return std::max<uint64_t>(64, A.value());
}

/// \p Block moved by the remainder of \p Local's address modulo \p Mod.
static Value *sameResidue(IRBuilder<> &B, Value *Block, Value *Local,
                          uint64_t Mod, const Twine &Name) {
  Value *Residue =
      B.CreateAnd(B.CreatePtrToInt(Local, B.getInt64Ty()), B.getInt64(Mod - 1));
  return B.CreateGEP(B.getInt8Ty(), Block, Residue, Name);
}

/// GPU device code has malloc (16-byte aligned) but no aligned_alloc: a
/// local's shadow block there is carved out of a larger malloc'ed one, with
/// the malloc'ed pointer kept in the 8 bytes before it for the free.
static Value *createDeviceBlock(IRBuilder<> &B, Value *Size, uint64_t Mod) {
  Value *Raw =
      emitMalloc(B, B.CreateAdd(Size, B.getInt64(2 * Mod)), "shadow.raw");
  Value *Aligned =
      B.CreateIntrinsic(Intrinsic::ptrmask, {Raw->getType(), B.getInt64Ty()},
                        {B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Raw, Mod),
                         B.getInt64(~(Mod - 1))},
                        nullptr, "shadow.mem");
  B.CreateAlignedStore(
      Raw, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Aligned, -8), Align(8));
  B.CreateMemSet(Aligned, B.getInt8(0), Size, Align(Mod));
  return Aligned;
}

Value *createShadowOfLocal(IRBuilder<> &B, Value *Local, Value *Bytes,
                           Align A) {
  uint64_t Mod = residueModulus(A);
  Value *Size =
      B.CreateAdd(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()), B.getInt64(Mod));
  Value *Block = isGpuModule(*B.GetInsertBlock()->getModule())
                     ? createDeviceBlock(B, Size, Mod)
                     : createZeroedShadowMemory(B, Size, B.getInt64(Mod));
  return sameResidue(B, Block, Local, Mod, "shadow.local");
}

void freeShadowOfLocal(IRBuilder<> &B, Value *Shadow, Align A) {
  uint64_t Mod = residueModulus(A);
  Value *Block =
      B.CreateIntrinsic(Intrinsic::ptrmask, {Shadow->getType(), B.getInt64Ty()},
                        {Shadow, B.getInt64(~(Mod - 1))});
  if (isGpuModule(*B.GetInsertBlock()->getModule()))
    Block = B.CreateAlignedLoad(
        B.getPtrTy(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, -8),
        Align(8));
  emitFree(B, Block);
}

Value *createStackShadowOfLocal(IRBuilder<> &B, Value *Local, Value *Bytes,
                                Align A, const Twine &Name) {
  uint64_t Mod = residueModulus(A);
  Value *Size =
      B.CreateAdd(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()), B.getInt64(Mod));
  AllocaInst *Block = B.CreateAlloca(B.getInt8Ty(), Size, Name + ".block");
  Block->setAlignment(Align(Mod));
  B.CreateMemSet(Block, B.getInt8(0), Size, Align(Mod));
  return sameResidue(B, Block, Local, Mod, Name);
}

/// operator new or new[] of \p Family (aligned when \p Alignment is
/// given): the shadow of a block that the program allocated with it.
static Value *emitOperatorNew(IRBuilder<> &B, Value *Bytes, Value *Alignment,
                              AllocatorFamily Family) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *I64 = B.getInt64Ty();
  bool Array = Family == AllocatorFamily::NewArray;
  if (!Alignment)
    return B.CreateCall(
        M.getOrInsertFunction(Array ? "_Znam" : "_Znwm", B.getPtrTy(), I64),
        {Bytes}, "shadow.mem");
  return B.CreateCall(M.getOrInsertFunction(Array ? "_ZnamSt11align_val_t"
                                                  : "_ZnwmSt11align_val_t",
                                            B.getPtrTy(), I64, I64),
                      {Bytes, B.CreateZExtOrTrunc(Alignment, I64)},
                      "shadow.mem");
}

/// Device code allocates every shadow with malloc.
static AllocatorFamily shadowFamily(IRBuilder<> &B, AllocatorFamily Family) {
  return isGpuModule(*B.GetInsertBlock()->getModule()) ? AllocatorFamily::Malloc
                                                       : Family;
}

Value *createZeroedShadowMemory(IRBuilder<> &B, Value *Bytes, Value *Alignment,
                                AllocatorFamily Family) {
  Bytes = B.CreateZExtOrTrunc(Bytes, B.getInt64Ty());
  auto *Known = dyn_cast_or_null<ConstantInt>(Alignment);
  if (shadowFamily(B, Family) != AllocatorFamily::Malloc) {
    Value *Block = emitOperatorNew(B, Bytes, Alignment, Family);
    B.CreateMemSet(Block, B.getInt8(0), Bytes,
                   Known ? MaybeAlign(Known->getZExtValue()) : MaybeAlign());
    return Block;
  }
  // malloc's alignment on the 64-bit targets the engine runs on.
  constexpr uint64_t CallocAlign = 16;
  if (!Alignment || (Known && Known->getZExtValue() <= CallocAlign))
    return emitCalloc(B, B.getInt64(1), Bytes, "shadow.mem");
  // aligned_alloc wants a size that is a multiple of the alignment.
  Module &M = *B.GetInsertBlock()->getModule();
  Value *Align = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.CreateZExtOrTrunc(Alignment, B.getInt64Ty()),
      B.getInt64(CallocAlign));
  Value *Size =
      B.CreateAnd(B.CreateAdd(Bytes, B.CreateSub(Align, B.getInt64(1))),
                  B.CreateNeg(Align));
  FunctionCallee AlignedAlloc = M.getOrInsertFunction(
      "aligned_alloc", B.getPtrTy(), B.getInt64Ty(), B.getInt64Ty());
  Value *Block = B.CreateCall(AlignedAlloc, {Align, Size}, "shadow.mem");
  B.CreateMemSet(Block, B.getInt8(0), Size,
                 Known ? MaybeAlign(Known->getZExtValue()) : MaybeAlign());
  return Block;
}

void freeShadowMemory(IRBuilder<> &B, Value *Shadow, AllocatorFamily Family,
                      Value *Alignment) {
  Family = shadowFamily(B, Family);
  if (Family == AllocatorFamily::Malloc)
    return emitFree(B, Shadow);
  Module &M = *B.GetInsertBlock()->getModule();
  bool Array = Family == AllocatorFamily::NewArray;
  if (!Alignment) {
    B.CreateCall(M.getOrInsertFunction(Array ? "_ZdaPv" : "_ZdlPv",
                                       B.getVoidTy(), B.getPtrTy()),
                 {Shadow});
    return;
  }
  B.CreateCall(M.getOrInsertFunction(
                   Array ? "_ZdaPvSt11align_val_t" : "_ZdlPvSt11align_val_t",
                   B.getVoidTy(), B.getPtrTy(), B.getInt64Ty()),
               {Shadow, B.CreateZExtOrTrunc(Alignment, B.getInt64Ty())});
}

std::pair<Value *, Value *> shadowReleaseArguments(IRBuilder<> &B,
                                                   AllocatorFamily Family,
                                                   Value *Alignment) {
  Family = shadowFamily(B, Family);
  // runtime/ShadowRelease.h numbers the families alike.
  Value *Code = B.getInt32(static_cast<unsigned>(Family));
  if (Family == AllocatorFamily::Malloc || !Alignment)
    return {Code, B.getInt64(0)};
  return {Code, B.CreateZExtOrTrunc(Alignment, B.getInt64Ty())};
}

Function *getShadowRealloc(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *FT = FunctionType::get(Ptr, {Ptr, I64}, false);
  if (Function *F = findReusableFunction(M, "enzyme.shadow.realloc", FT))
    return F;
  auto *F = Function::Create(FT, GlobalValue::InternalLinkage,
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

static constexpr const char *HandOverName = "__enzyme_rt_shadow_freed";

void recordEscapingShadow(IRBuilder<> &B, Value *Shadow) {
  Module &M = *B.GetInsertBlock()->getModule();
  if (canLinkRuntime(M))
    B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_shadow_made"), {Shadow});
}

void handOverShadow(IRBuilder<> &B, Value *Shadow, AllocatorFamily Family,
                    Value *Alignment) {
  Module &M = *B.GetInsertBlock()->getModule();
  if (!canLinkRuntime(M))
    return;
  auto [Code, Align] = shadowReleaseArguments(B, Family, Alignment);
  B.CreateCall(getRuntimeFunction(M, HandOverName), {Shadow, Code, Align});
}

bool handsOverShadows(const Function &Reverse) {
  return reachesRuntimeCall(Reverse, HandOverName);
}

Value *beginSweep(IRBuilder<> &B) {
  Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_sweep_begin"), {},
                      "sweep.mark");
}

void endSweep(IRBuilder<> &B, Value *Mark, bool Gradient) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_sweep_end"),
               {Mark, B.getInt32(Gradient)});
}

} // namespace enzyme
