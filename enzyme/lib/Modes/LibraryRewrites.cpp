//===- LibraryRewrites.cpp - Library calls the engine restates ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/LibraryRewrites.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cerrno>

using namespace llvm;

namespace enzyme {

/// `int posix_memalign(void **, size_t, size_t)`, as a C library declares it.
static bool isPosixMemalign(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName() != "posix_memalign" ||
      !Callee->isDeclaration() || Call.arg_size() != 3)
    return false;
  return Call.getType()->isIntegerTy() &&
         Call.getArgOperand(0)->getType()->isPointerTy() &&
         Call.getArgOperand(1)->getType()->isIntegerTy() &&
         Call.getArgOperand(2)->getType()->isIntegerTy();
}

static void rewritePosixMemalign(CallInst &Call) {
  Module &M = *Call.getModule();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *SizeTy = DL.getIntPtrType(Ctx);
  Type *PtrTy = PointerType::getUnqual(Ctx);
  // memalign, unlike aligned_alloc, takes any size (C11's aligned_alloc
  // wants a multiple of the alignment, and sanitizers check that).
  FunctionCallee Memalign = M.getOrInsertFunction(
      "memalign", FunctionType::get(PtrTy, {SizeTy, SizeTy}, false));

  Value *Out = Call.getArgOperand(0);
  IRBuilder<> B(&Call);
  Value *Align = B.CreateZExtOrTrunc(Call.getArgOperand(1), SizeTy);
  Value *Size = B.CreateZExtOrTrunc(Call.getArgOperand(2), SizeTy);
  Value *PowerOfTwo =
      B.CreateICmpEQ(B.CreateUnaryIntrinsic(Intrinsic::ctpop, Align),
                     ConstantInt::get(SizeTy, 1));
  Value *BigEnough =
      B.CreateICmpUGE(Align, ConstantInt::get(SizeTy, DL.getPointerSize()));
  Value *Valid = B.CreateAnd(PowerOfTwo, BigEnough, "memalign.valid");

  Instruction *Then = SplitBlockAndInsertIfThen(Valid, &Call, false);
  BasicBlock *ThenBB = Then->getParent();
  BasicBlock *Head = ThenBB->getSinglePredecessor();
  B.SetInsertPoint(Then);
  CallInst *Block = B.CreateCall(Memalign, {Align, Size}, "memalign");
  Value *Got = B.CreateIsNotNull(Block);
  // posix_memalign leaves *pp alone when it fails.
  Value *Old = B.CreateLoad(PtrTy, Out);
  B.CreateStore(B.CreateSelect(Got, Block, Old), Out);

  B.SetInsertPoint(&Call);
  PHINode *Allocated = B.CreatePHI(B.getInt1Ty(), 2);
  Allocated->addIncoming(Got, ThenBB);
  Allocated->addIncoming(B.getFalse(), Head);
  Type *RetTy = Call.getType();
  Value *Result =
      B.CreateSelect(Valid,
                     B.CreateSelect(Allocated, ConstantInt::get(RetTy, 0),
                                    ConstantInt::get(RetTy, ENOMEM)),
                     ConstantInt::get(RetTy, EINVAL));
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// `T modf(T, T *)` for T float, double or long double.
static bool isModf(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() != 2)
    return false;
  StringRef Name = Callee->getName();
  Type *Ty = Call.getType();
  bool NameMatches = (Name == "modf" && Ty->isDoubleTy()) ||
                     (Name == "modff" && Ty->isFloatTy()) ||
                     (Name == "modfl" && Ty->isX86_FP80Ty());
  return NameMatches && Call.getArgOperand(0)->getType() == Ty &&
         Call.getArgOperand(1)->getType()->isPointerTy();
}

/// The integral part, written again as a store of the same value.
static void restateModf(CallInst &Call) {
  IRBuilder<> B(Call.getNextNode());
  Value *X = Call.getArgOperand(0);
  Value *Integral = B.CreateUnaryIntrinsic(Intrinsic::trunc, X);
  B.CreateStore(Integral, Call.getArgOperand(1));
}

bool rewriteLibraryCalls(Function &F) {
  SmallVector<CallInst *, 2> Memaligns, Modfs;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      if (isPosixMemalign(*Call))
        Memaligns.push_back(Call);
      else if (isModf(*Call))
        Modfs.push_back(Call);
    }
  for (CallInst *Call : Memaligns)
    rewritePosixMemalign(*Call);
  for (CallInst *Call : Modfs)
    restateModf(*Call);
  return !Memaligns.empty() || !Modfs.empty();
}

} // namespace enzyme
