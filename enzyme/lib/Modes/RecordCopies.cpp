//===- RecordCopies.cpp - Shadows of copies of arrays of records ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/RecordCopies.h"
#include "Modes/SharedAdjoints.h"

#include "Core/ReusableFunctions.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace enzyme {

Function *
getElementLoop(Module &M, StringRef Name, uint64_t ElementSize, bool AsWritten,
               function_ref<void(IRBuilder<> &, Value *Dst, Value *Src)> Body) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false);
  if (Function *F = findReusableFunction(M, Name, FT))
    return F;
  auto *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  auto *Entry = BasicBlock::Create(Ctx, "entry", F);
  auto *Loop = BasicBlock::Create(Ctx, "loop", F);
  auto *Exit = BasicBlock::Create(Ctx, "exit", F);
  IRBuilder<> B(Entry);
  Value *Count = B.CreateUDiv(F->getArg(2), B.getInt64(ElementSize));
  // A copy to lower addresses writes its first element first.
  Value *Downward = B.CreateICmpULT(B.CreatePtrToInt(F->getArg(0), I64),
                                    B.CreatePtrToInt(F->getArg(1), I64));
  Value *LastFirst = AsWritten ? B.CreateNot(Downward) : Downward;
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt64(0)), Exit, Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(I64, 2);
  K->addIncoming(B.getInt64(0), Entry);
  Value *I = B.CreateSelect(
      LastFirst, B.CreateSub(B.CreateSub(Count, B.getInt64(1)), K), K);
  Value *At = B.CreateMul(I, B.getInt64(ElementSize));
  Body(B, B.CreateInBoundsGEP(B.getInt8Ty(), F->getArg(0), At),
       B.CreateInBoundsGEP(B.getInt8Ty(), F->getArg(1), At));
  // An atomic addition to device memory branches on the address space: the
  // back edge leaves from the block the body ends in.
  Value *Next = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(Next, Count), Loop, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return F;
}

/// A name for \p Record's fields of the kinds \p Wanted: stride, then
/// offset and kind of each.
static std::string recordName(StringRef Prefix, const CopyRecord &Record) {
  std::string Name = Prefix.str();
  raw_string_ostream OS(Name);
  OS << Record.Stride;
  for (const CopyRecord::Field &F : Record.Fields)
    OS << "." << F.Offset << "k" << uint64_t(F.What);
  return Name;
}

/// \p Base + \p Offset bytes.
static Value *fieldAt(IRBuilder<> &B, Value *Base, uint64_t Offset) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
}

Function *getRecordShadowCopy(Module &M, const CopyRecord &Record) {
  return getElementLoop(
      M, recordName("enzyme.record.shadows.", Record), Record.Stride,
      /*AsWritten=*/true, [&](IRBuilder<> &B, Value *Dst, Value *Src) {
        for (const CopyRecord::Field &F : Record.Fields)
          if (F.What == CopyRecord::Pointers)
            B.CreateStore(B.CreateLoad(B.getPtrTy(), fieldAt(B, Src, F.Offset)),
                          fieldAt(B, Dst, F.Offset));
      });
}

Function *getRecordAdjointMove(Module &M, const CopyRecord &Record,
                               bool Atomic) {
  StringRef Prefix =
      Atomic ? "enzyme.record.adjoints.atomic." : "enzyme.record.adjoints.";
  return getElementLoop(
      M, recordName(Prefix, Record), Record.Stride, /*AsWritten=*/false,
      [&](IRBuilder<> &B, Value *Dst, Value *Src) {
        for (const CopyRecord::Field &F : Record.Fields) {
          Type *Ty = CopyRecord::typeOf(F.What, M.getContext());
          if (!Ty || !Ty->isFloatingPointTy())
            continue;
          Value *From = fieldAt(B, Dst, F.Offset);
          Value *D = B.CreateLoad(Ty, From);
          B.CreateStore(Constant::getNullValue(Ty), From);
          accumulateAdjoint(B, Ty, fieldAt(B, Src, F.Offset), D, MaybeAlign(),
                            Atomic);
        }
      });
}

} // namespace enzyme
