//===- AccessIndex.cpp - A function's memory accesses by object -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/AccessIndex.h"

#include "Analysis/MemoryTypes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

ArrayRef<AccessIndex::Access> AccessIndex::accessesOf(Function &F,
                                                      const Value *Base) {
  const ByObject &Index = indexOf(F);
  auto It = Index.find(Base);
  if (It == Index.end())
    return {};
  return It->second;
}

const AccessIndex::ByObject &AccessIndex::indexOf(Function &F) {
  auto [It, Inserted] = Functions.try_emplace(&F);
  ByObject &Index = It->second;
  if (!Inserted)
    return Index;
  const DataLayout &DL = F.getDataLayout();
  auto File = [&](Value *Ptr, Access A) {
    const Value *Base = GetPointerBaseWithConstantOffset(Ptr, A.Offset, DL);
    Index[Base].push_back(A);
  };
  unsigned Position = 0;
  for (Instruction &I : instructions(F)) {
    ++Position;
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Type *Ty = annotatedType(*Call)) {
        File(Call->getArgOperand(0),
             {Access::Annotation, 0, &I, Position, 0, Ty});
        continue;
      }
      Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->isDeclaration())
        continue;
      for (const Use &Arg : Call->args())
        if (Arg->getType()->isPointerTy() &&
            Arg.getOperandNo() < Callee->arg_size())
          File(Arg.get(), {Access::CallArgument, 0, &I, Position,
                           Arg.getOperandNo(), nullptr});
      continue;
    }
    if (Value *Ptr = const_cast<Value *>(getLoadStorePointerOperand(&I)))
      File(Ptr, {Access::LoadOrStore, 0, &I, Position, 0, nullptr});
  }
  return Index;
}

} // namespace enzyme
