//===- DynamicSharedShadows.cpp - Shadows in dynamic shared memory --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every `extern __shared__` array of a kernel starts where the block's
/// dynamic shared memory starts, whose size the launch gives. The derivative
/// kernels of a launch from differentiated host code run with twice the
/// launch's dynamic bytes (rounded up to 16): the primal data first, then
/// the shadows at an offset the launch passes as the kernels' last
/// parameter. Each such kernel keeps the offset in a slot of static shared
/// memory, and the uses of the shadows' stand-ins (Core/GlobalShadows.h)
/// become the primal array's address plus the slot's value, in whatever
/// function of the derivative they are.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"

#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/KernelLaunches.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;

namespace enzyme {

static constexpr StringLiteral OffsetSlotName = "_enzyme_dynamic_shadow_offset";

GlobalVariable *dynamicShadowOffsetSlot(Module &M, bool Create) {
  if (GlobalVariable *Slot = M.getNamedGlobal(OffsetSlotName))
    return Slot;
  if (!Create)
    return nullptr;
  Type *I32 = Type::getInt32Ty(M.getContext());
  auto *Slot =
      new GlobalVariable(M, I32, /*isConstant=*/false,
                         GlobalValue::InternalLinkage, UndefValue::get(I32),
                         OffsetSlotName, nullptr, GlobalValue::NotThreadLocal,
                         /*AddressSpace=*/3);
  Slot->setAlignment(Align(4));
  return Slot;
}

/// The primal array whose stand-in shadow \p StandIn is.
static GlobalVariable *primalOf(Module &M, GlobalVariable &StandIn) {
  for (GlobalVariable &GV : M.globals())
    if (globalShadowOf(GV) == &StandIn)
      return &GV;
  return nullptr;
}

void lowerDynamicSharedShadows(Module &M, ArrayRef<GlobalVariable *> StandIns) {
  for (GlobalVariable *StandIn : StandIns) {
    GlobalVariable *Primal = primalOf(M, *StandIn);
    if (Primal)
      clearGlobalShadow(*Primal);
    StandIn->removeDeadConstantUsers();
    if (StandIn->use_empty() || !Primal) {
      StandIn->eraseFromParent();
      continue;
    }
    convertUsersOfConstantsToInstructions({StandIn});
    GlobalVariable *Slot = dynamicShadowOffsetSlot(M, /*Create=*/true);
    SmallVector<Use *, 8> Uses;
    for (Use &U : StandIn->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *I = cast<Instruction>(U->getUser());
      // Before the use, or for a phi at the end of the incoming block.
      Instruction *At = I;
      if (auto *Phi = dyn_cast<PHINode>(I))
        At = Phi->getIncomingBlock(*U)->getTerminator();
      IRBuilder<> B(At);
      Value *Offset = B.CreateLoad(B.getInt32Ty(), Slot, "shadow.offset");
      Value *Address =
          B.CreateGEP(B.getInt8Ty(), Primal, Offset, "dynamic.shadow");
      if (Address->getType() != U->get()->getType())
        Address = B.CreateAddrSpaceCast(Address, U->get()->getType());
      U->set(Address);
    }
    StandIn->eraseFromParent();
  }
}

void checkDynamicSharedShadowUsers(Module &M) {
  GlobalVariable *Slot = dynamicShadowOffsetSlot(M, /*Create=*/false);
  if (!Slot)
    return;
  // The functions that read the slot and those that call them, up to the
  // kernels: each must be a launch's derivative kernel, which sets it.
  SetVector<Function *> Reached;
  for (User *U : Slot->users())
    if (auto *Load = dyn_cast<LoadInst>(U))
      Reached.insert(Load->getFunction());
  for (unsigned I = 0; I < Reached.size(); ++I) {
    Function *F = Reached[I];
    if (isCudaKernel(*F)) {
      if (!F->getName().starts_with("_enzyme_kernel_"))
        reportError(*F->getEntryBlock().getFirstNonPHIOrDbg(),
                    "cannot differentiate the `extern __shared__` arrays "
                    "that kernel '" +
                        displayName(F->getName()) +
                        "' uses: their shadows need dynamic shared memory "
                        "that only the launches of differentiated host code "
                        "provide; differentiate the host code that launches "
                        "the kernel (docs/cuda.md), or use a `__shared__` "
                        "array of fixed size");
      continue;
    }
    for (User *U : F->users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Reached.insert(Call->getFunction());
  }
}

} // namespace enzyme
