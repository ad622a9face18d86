//===- GlobalShadows.cpp - Globals whose shadow the user declared ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GlobalShadows.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

static constexpr const char *ShadowKind = "enzyme_shadow";

void setGlobalShadow(GlobalVariable &GV, GlobalVariable &Shadow) {
  GV.setMetadata(ShadowKind,
                 MDNode::get(GV.getContext(), {ValueAsMetadata::get(&Shadow)}));
}

GlobalVariable *globalShadowOf(const GlobalVariable &GV) {
  MDNode *N = GV.getMetadata(ShadowKind);
  if (!N || N->getNumOperands() != 1)
    return nullptr;
  auto *VM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0));
  return VM ? dyn_cast<GlobalVariable>(VM->getValue()) : nullptr;
}

Constant *constantShadow(Constant *C) {
  if (auto *GV = dyn_cast<GlobalVariable>(C))
    return globalShadowOf(*GV);
  auto *CE = dyn_cast<ConstantExpr>(C);
  if (!CE)
    return nullptr;
  // Casts and address arithmetic repeat on the shadow.
  if (!CE->isCast() && CE->getOpcode() != Instruction::GetElementPtr)
    return nullptr;
  Constant *Base = constantShadow(CE->getOperand(0));
  if (!Base)
    return nullptr;
  SmallVector<Constant *, 4> Ops;
  for (Value *Op : CE->operand_values())
    Ops.push_back(cast<Constant>(Op));
  Ops[0] = Base;
  return CE->getWithOperands(Ops);
}

static constexpr const char *UserAttr = "enzyme_shadowed_globals";
static constexpr const char *ModuleFlag = "enzyme.shadowed_globals";

/// \p V, a constant, mentions a global with a declared shadow.
static bool mentionsShadowedGlobal(const Value *V, unsigned Depth = 0) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V))
    return globalShadowOf(*GV) != nullptr;
  const auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE || Depth > 8)
    return false;
  return any_of(CE->operands(), [&](const Use &U) {
    return mentionsShadowedGlobal(U.get(), Depth + 1);
  });
}

void markShadowedGlobalUsers(Module &M) {
  bool Any = false;
  for (GlobalVariable &GV : M.globals())
    Any |= globalShadowOf(GV) != nullptr;
  for (Function &F : M)
    F.removeFnAttr(UserAttr);
  if (NamedMDNode *Flag = M.getNamedMetadata(ModuleFlag))
    M.eraseNamedMetadata(Flag);
  if (!Any)
    return;
  M.getOrInsertNamedMetadata(ModuleFlag);
  // Direct users, then their callers, to a fixed point.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.hasFnAttribute(UserAttr))
        continue;
      bool Touches = any_of(instructions(F), [](const Instruction &I) {
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (const Function *Callee = Call->getCalledFunction();
              Callee && Callee->hasFnAttribute(UserAttr))
            return true;
        return any_of(I.operands(), [](const Use &U) {
          return mentionsShadowedGlobal(U.get());
        });
      });
      if (Touches) {
        F.addFnAttr(UserAttr);
        Changed = true;
      }
    }
  }
}

bool mayTouchShadowedGlobals(const CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction())
    return Callee->hasFnAttribute(UserAttr);
  return !Call.isInlineAsm() &&
         Call.getModule()->getNamedMetadata(ModuleFlag) != nullptr;
}

bool hasConstantShadow(const Value *V) {
  auto *C = dyn_cast<Constant>(V);
  return C && constantShadow(const_cast<Constant *>(C));
}

} // namespace enzyme
