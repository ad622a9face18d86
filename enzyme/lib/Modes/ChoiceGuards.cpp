//===- ChoiceGuards.cpp - Choices of memory without derivatives -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ChoiceGuards.h"
#include "Core/RuntimeLibrary.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

void guardUnshadowedChoice(Instruction &Choice, Instruction &Generated,
                           function_ref<bool(const Value *)> LacksShadow,
                           const Function &Primal) {
  Module &M = *Generated.getModule();
  LLVMContext &Ctx = M.getContext();
  Value *Taken = nullptr;
  IRBuilder<> B(Ctx);
  if (auto *Select = dyn_cast<SelectInst>(&Choice)) {
    B.SetInsertPoint(Generated.getNextNode());
    Value *Cond = Generated.getOperand(0);
    bool TrueLacks = LacksShadow(Select->getTrueValue());
    bool FalseLacks = LacksShadow(Select->getFalseValue());
    if (TrueLacks && FalseLacks)
      Taken = B.getTrue();
    else if (TrueLacks)
      Taken = Cond;
    else
      Taken = B.CreateNot(Cond, "enzyme.unshadowed.taken");
  } else {
    auto &Phi = cast<PHINode>(Choice);
    auto &GenPhi = cast<PHINode>(Generated);
    B.SetInsertPoint(GenPhi.getParent(),
                     GenPhi.getParent()->getFirstNonPHIIt());
    IRBuilder<> PhiB(&GenPhi);
    PHINode *FromUnshadowed =
        PhiB.CreatePHI(B.getInt1Ty(), GenPhi.getNumIncomingValues(),
                       "enzyme.unshadowed.taken");
    for (unsigned In = 0; In < Phi.getNumIncomingValues(); ++In)
      FromUnshadowed->addIncoming(
          B.getInt1(LacksShadow(Phi.getIncomingValue(In))),
          GenPhi.getIncomingBlock(In));
    Taken = FromUnshadowed;
  }
  // The copy's location: the choice's is in the prepared function.
  B.SetCurrentDebugLocation(Generated.getDebugLoc());
  auto [Name, Where] =
      createReportSubject(B, Primal, Generated.getDebugLoc(), "enzyme.choice");
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_check_choice"),
               {Taken, Name, Where});
}

} // namespace enzyme
