//===- Tape.cpp - The stack between augmented forward and reverse ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/Tape.h"
#include "Core/GpuTarget.h"
#include "Core/LibcCalls.h"
#include "Core/ReusableFunctions.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

using namespace llvm;

namespace enzyme {

static constexpr uint64_t InitialCapacity = 4096;

TapeBuilder::TapeBuilder(Module &M, unsigned Level) : M(M) {
  LLVMContext &Ctx = M.getContext();
  TapeTy = StructType::getTypeByName(Ctx, "enzyme.tape");
  if (!TapeTy)
    TapeTy = StructType::create(Ctx,
                                {PointerType::getUnqual(Ctx),
                                 Type::getInt64Ty(Ctx), Type::getInt64Ty(Ctx)},
                                "enzyme.tape");
  // Named scopes are uniqued, so every function of the module (and of a
  // link) shares them, and inlined tape accesses keep their meaning (the
  // inliner clones distinct scopes, not named ones). Higher-order nesting
  // levels get names of their own: the tape accesses of an inner derivative
  // are user memory to the outer one, not its tape.
  MDBuilder MDB(Ctx);
  std::string Suffix = Level ? "." + std::to_string(Level) : "";
  MDNode *Domain = MDB.createAliasScopeDomain("enzyme.tape" + Suffix);
  MDNode *Header = MDB.createAliasScope("enzyme.tape.header" + Suffix, Domain);
  MDNode *Data = MDB.createAliasScope("enzyme.tape.data" + Suffix, Domain);
  HeaderScopes = MDNode::get(Ctx, {Header});
  DataScopes = MDNode::get(Ctx, {Data});
  AllScopes = MDNode::get(Ctx, {Header, Data});
}

Instruction *TapeBuilder::header(Instruction *I) const {
  I->setMetadata(LLVMContext::MD_alias_scope, HeaderScopes);
  I->setMetadata(LLVMContext::MD_noalias, DataScopes);
  return I;
}

Instruction *TapeBuilder::data(Instruction *I) const {
  I->setMetadata(LLVMContext::MD_alias_scope, DataScopes);
  I->setMetadata(LLVMContext::MD_noalias, HeaderScopes);
  return I;
}

void TapeBuilder::markDisjointFromTape(Function &F) const {
  for (Instruction &I : instructions(F)) {
    // Atomic adjoint additions (GPU code, OpenMP regions) too: otherwise
    // the tape's header stays in memory across every iteration around them.
    if (!isa<LoadInst>(I) && !isa<StoreInst>(I) && !isa<MemIntrinsic>(I) &&
        !isa<AtomicRMWInst>(I) && !isa<AtomicCmpXchgInst>(I))
      continue;
    MDNode *Scope = I.getMetadata(LLVMContext::MD_alias_scope);
    if (Scope == HeaderScopes || Scope == DataScopes)
      continue;
    I.setMetadata(
        LLVMContext::MD_noalias,
        MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias), AllScopes));
  }
}

uint64_t TapeBuilder::slotSize(Type *Ty) const {
  return alignTo(M.getDataLayout().getTypeAllocSize(Ty).getFixedValue(), 8);
}

/// A CUDA thread's tape starts in this many bytes of its local memory and
/// moves to the device heap (small and slow) only when it outgrows them;
/// a tape known never to receive more than MaxLocalTapeBytes gets all it
/// needs.
static constexpr uint64_t LocalTapeBytes = 512;
static constexpr uint64_t MaxLocalTapeBytes = 16384;

/// \p Data, or null when it is the local buffer a tape started in, which
/// is not the heap's to free.
static Value *heapPart(IRBuilder<> &B, Value *Data) {
  if (!isCudaModule(*B.GetInsertBlock()->getModule()))
    return Data;
  Value *IsLocal =
      B.CreateIntrinsic(Intrinsic::nvvm_isspacep_local, {}, {Data});
  return B.CreateSelect(IsLocal, Constant::getNullValue(Data->getType()), Data);
}

Value *TapeBuilder::createTape(IRBuilder<> &B,
                               std::optional<uint64_t> Bound) const {
  Function *F = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  Value *Tape = Entry.CreateAlloca(TapeTy, nullptr, "tape");
  header(B.CreateStore(Constant::getNullValue(TapeTy), Tape));
  if (isCudaModule(M)) {
    uint64_t Bytes = Bound && *Bound <= MaxLocalTapeBytes
                         ? std::max<uint64_t>(*Bound, 8)
                         : LocalTapeBytes;
    AllocaInst *Local = Entry.CreateAlloca(ArrayType::get(B.getInt8Ty(), Bytes),
                                           nullptr, "tape.local");
    Local->setAlignment(Align(16));
    header(B.CreateStore(Local, B.CreateStructGEP(TapeTy, Tape, 0)));
    header(
        B.CreateStore(B.getInt64(Bytes), B.CreateStructGEP(TapeTy, Tape, 2)));
    return Tape;
  }
  if (poolsStorage())
    takeKeptStorage(B, Tape);
  return Tape;
}

void TapeBuilder::destroyTape(IRBuilder<> &B, Value *Tape) const {
  giveOrFreeStorage(B, Tape);
}

uint64_t TapeBuilder::packedSize(ArrayRef<Type *> Types) const {
  uint64_t Bytes = 0;
  for (Type *Ty : Types)
    Bytes += M.getDataLayout().getTypeStoreSize(Ty).getFixedValue();
  return Bytes;
}

// The caller's buffer may have any alignment (a float array element), so
// fixed tapes are accessed with alignment 1.
void TapeBuilder::store(IRBuilder<> &B, Value *Base, uint64_t Offset,
                        ArrayRef<Value *> Values) const {
  for (Value *V : Values) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
    data(B.CreateAlignedStore(V, Ptr, Align(1)));
    Offset += packedSize({V->getType()});
  }
}

SmallVector<Value *, 8> TapeBuilder::load(IRBuilder<> &B, Value *Base,
                                          uint64_t Offset,
                                          ArrayRef<Type *> Types) const {
  SmallVector<Value *, 8> Result;
  for (Type *Ty : Types) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
    Result.push_back(data(B.CreateAlignedLoad(Ty, Ptr, Align(1))));
    Offset += packedSize({Ty});
  }
  return Result;
}

AllocaInst *TapeBuilder::createFixedTape(Function &F, uint64_t Bytes,
                                         const Twine &Name) const {
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Buffer = Entry.CreateAlloca(
      ArrayType::get(Entry.getInt8Ty(), std::max<uint64_t>(Bytes, 1)), nullptr,
      Name);
  Buffer->setAlignment(Align(16));
  return Buffer;
}

/// On CPUs, a tape starts with storage that the thread's earlier tapes
/// left (runtime/TapeStorage.c), so that repeated gradients neither grow
/// fresh buffers nor fault their pages in again; its storage goes back
/// there. Not for tapes that a higher-order derivative differentiates in
/// turn (ReuseStorage), nor where the run-time does not link.
bool TapeBuilder::poolsStorage() const {
  // GPU targets cannot link the run-time (nor have thread-local storage).
  return ReuseStorage && canLinkRuntime(M);
}

void TapeBuilder::takeKeptStorage(IRBuilder<> &B, Value *Tape) const {
  Value *Storage =
      B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_tape_take"), {});
  header(B.CreateStore(B.CreateExtractValue(Storage, 0),
                       B.CreateStructGEP(TapeTy, Tape, 0)));
  header(B.CreateStore(B.CreateExtractValue(Storage, 1),
                       B.CreateStructGEP(TapeTy, Tape, 2)));
}

void TapeBuilder::giveOrFreeStorage(IRBuilder<> &B, Value *Tape) const {
  Value *Data =
      header(B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(TapeTy, Tape, 0)));
  if (!poolsStorage())
    return emitFree(B, heapPart(B, Data));
  Value *Cap =
      header(B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(TapeTy, Tape, 2)));
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_tape_give"), {Data, Cap});
}

Value *TapeBuilder::createHeapTape(IRBuilder<> &B) const {
  uint64_t Bytes = M.getDataLayout().getTypeAllocSize(TapeTy);
  Value *Tape = emitCalloc(B, B.getInt64(1), B.getInt64(Bytes), "tape");
  if (poolsStorage())
    takeKeptStorage(B, Tape);
  return Tape;
}

void TapeBuilder::destroyHeapTape(IRBuilder<> &B, Value *Tape) const {
  giveOrFreeStorage(B, Tape);
  emitFree(B, Tape);
}

/// `void enzyme.tape.grow(ptr tape, i64 needed)`: the cold path of a push,
/// kept out of line so the hot path stays a compare and a few stores.
Function *TapeBuilder::getOrCreateGrowFunction() const {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, I64}, false);
  if (Function *F = findReusableFunction(M, "enzyme.tape.grow", FT))
    return F;
  auto *F =
      Function::Create(FT, GlobalValue::InternalLinkage, "enzyme.tape.grow", M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Tape = F->getArg(0), *Needed = F->getArg(1);
  Value *DataPtr = B.CreateStructGEP(TapeTy, Tape, 0);
  Value *CapPtr = B.CreateStructGEP(TapeTy, Tape, 2);
  Value *Cap = B.CreateLoad(I64, CapPtr);
  Value *Doubled = B.CreateShl(Cap, 1);
  Value *NewCap = B.CreateBinaryIntrinsic(Intrinsic::umax, Doubled, Needed);
  NewCap = B.CreateBinaryIntrinsic(Intrinsic::umax, NewCap,
                                   B.getInt64(InitialCapacity));
  Value *OldData = B.CreateLoad(Ptr, DataPtr);
  Value *NewData;
  if (isGpuModule(M)) {
    // Device code has no realloc: move the bytes pushed so far.
    NewData = emitMalloc(B, NewCap);
    // An exhausted device heap stops the kernel with a message rather than
    // letting it write through a null tape.
    BasicBlock *Exhausted = BasicBlock::Create(Ctx, "heap.exhausted", F);
    BasicBlock *Grown = BasicBlock::Create(Ctx, "grown", F);
    B.CreateCondBr(B.CreateIsNull(NewData), Exhausted, Grown);
    B.SetInsertPoint(Exhausted);
    emitDeviceTrap(B, "enzyme: the device heap is exhausted: a derivative's "
                      "tape needs more (raise it with cudaDeviceSetLimit("
                      "cudaLimitMallocHeapSize, ...))\n");
    B.SetInsertPoint(Grown);
    Value *Size = B.CreateLoad(I64, B.CreateStructGEP(TapeTy, Tape, 1));
    B.CreateMemCpy(NewData, MaybeAlign(8), OldData, MaybeAlign(8), Size);
    emitFree(B, heapPart(B, OldData));
  } else {
    NewData = emitRealloc(B, OldData, NewCap);
  }
  B.CreateStore(NewData, DataPtr);
  B.CreateStore(NewCap, CapPtr);
  B.CreateRetVoid();
  return F;
}

void TapeBuilder::ensureCapacity(IRBuilder<> &B, Value *Tape,
                                 Value *Needed) const {
  Value *Cap = header(B.CreateLoad(
      B.getInt64Ty(), B.CreateStructGEP(TapeTy, Tape, 2), "tape.capacity"));
  Value *Full = B.CreateICmpUGT(Needed, Cap);

  // Grow on a cold path: split the block at the insertion point (which must
  // be before the block's terminator) and branch around the call.
  BasicBlock *Cur = B.GetInsertBlock();
  BasicBlock *Cont = Cur->splitBasicBlock(B.GetInsertPoint(), "tape.push");
  BasicBlock *GrowBB =
      BasicBlock::Create(B.getContext(), "tape.grow", Cur->getParent(), Cont);
  Cur->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Cur);
  B.CreateCondBr(Full, GrowBB, Cont);
  B.SetInsertPoint(GrowBB);
  B.CreateCall(getOrCreateGrowFunction(), {Tape, Needed});
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont, Cont->getFirstInsertionPt());
}

uint64_t TapeBuilder::batchSize(ArrayRef<Value *> Values) const {
  uint64_t Bytes = 0;
  for (Value *V : Values)
    Bytes += slotSize(V->getType());
  return Bytes;
}

void TapeBuilder::reserve(IRBuilder<> &B, Value *Tape, Value *Bytes) const {
  Value *Size = header(B.CreateLoad(
      B.getInt64Ty(), B.CreateStructGEP(TapeTy, Tape, 1), "tape.size"));
  ensureCapacity(B, Tape, B.CreateAdd(Size, Bytes, "tape.reserved"));
}

void TapeBuilder::push(IRBuilder<> &B, Value *Tape, ArrayRef<Value *> Values,
                       bool Reserved) const {
  if (Values.empty())
    return;
  uint64_t Bytes = batchSize(Values);

  Type *I64 = B.getInt64Ty();
  Value *SizePtr = B.CreateStructGEP(TapeTy, Tape, 1);
  Value *Size = header(B.CreateLoad(I64, SizePtr, "tape.size"));
  Value *NewSize =
      B.CreateAdd(Size, B.getInt64(Bytes), "tape.newsize", true, true);
  if (!Reserved)
    ensureCapacity(B, Tape, NewSize);

  Value *Data =
      header(B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(TapeTy, Tape, 0)));
  Value *Slot = B.CreateInBoundsGEP(B.getInt8Ty(), Data, Size);
  uint64_t Offset = 0;
  for (Value *V : Values) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, Offset);
    data(B.CreateAlignedStore(V, Ptr, Align(8)));
    Offset += slotSize(V->getType());
  }
  header(B.CreateStore(NewSize, SizePtr));
}

SmallVector<Value *, 8> TapeBuilder::pop(IRBuilder<> &B, Value *Tape,
                                         ArrayRef<Type *> Types) const {
  SmallVector<Value *, 8> Result;
  if (Types.empty())
    return Result;
  uint64_t Bytes = 0;
  for (Type *Ty : Types)
    Bytes += slotSize(Ty);
  Type *I64 = B.getInt64Ty();
  Value *SizePtr = B.CreateStructGEP(TapeTy, Tape, 1);
  Value *Size = header(B.CreateLoad(I64, SizePtr, "tape.size"));
  Value *NewSize =
      B.CreateSub(Size, B.getInt64(Bytes), "tape.newsize", true, true);
  header(B.CreateStore(NewSize, SizePtr));
  Value *Data =
      header(B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(TapeTy, Tape, 0)));
  Value *Slot = B.CreateInBoundsGEP(B.getInt8Ty(), Data, NewSize);
  uint64_t Offset = 0;
  for (Type *Ty : Types) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, Offset);
    Result.push_back(data(B.CreateAlignedLoad(Ty, Ptr, Align(8))));
    Offset += slotSize(Ty);
  }
  return Result;
}

} // namespace enzyme
