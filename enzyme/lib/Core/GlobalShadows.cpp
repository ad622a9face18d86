//===- GlobalShadows.cpp - Globals whose shadow the user declared ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GlobalShadows.h"
#include "Core/GlobalUsers.h"
#include "Core/GpuTarget.h"

#include "Analysis/ActivityAnalysis.h"

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

static constexpr GlobalUserMarks ShadowedGlobalUsers = {
    "enzyme_shadowed_globals", "enzyme.shadowed_globals"};

void markShadowedGlobalUsers(Module &M) {
  markGlobalUsers(
      M, ShadowedGlobalUsers, /*Enabled=*/true,
      [](const GlobalVariable &GV) { return globalShadowOf(GV) != nullptr; });
}

bool mayTouchShadowedGlobals(const CallBase &Call) {
  return mayReachMarkedGlobals(Call, ShadowedGlobalUsers);
}

bool hasConstantShadow(const Value *V) {
  auto *C = dyn_cast<Constant>(V);
  return C && constantShadow(const_cast<Constant *>(C));
}

/// On the shadows the engine made for shared memory.
static constexpr const char *MadeForSharedMemory = "enzyme_shared_shadow";

void createSharedMemoryShadows(Module &M) {
  if (!isCudaModule(M))
    return;
  constexpr unsigned SharedAddressSpace = 3;
  SmallVector<GlobalVariable *, 4> Arrays;
  // Any type: CUB's block algorithms keep their floats in storage declared
  // as bytes (a shadow no derivative uses is removed again).
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == SharedAddressSpace && !GV.isConstant() &&
        GV.hasInitializer() && !globalShadowOf(GV))
      Arrays.push_back(&GV);
  for (GlobalVariable *GV : Arrays) {
    auto *Shadow = new GlobalVariable(
        M, GV->getValueType(), /*isConstant=*/false,
        GlobalValue::InternalLinkage, UndefValue::get(GV->getValueType()),
        GV->getName() + ".shadow", nullptr, GlobalValue::NotThreadLocal,
        SharedAddressSpace);
    Shadow->setAlignment(GV->getAlign());
    Shadow->setMetadata(MadeForSharedMemory, MDNode::get(M.getContext(), {}));
    setGlobalShadow(*GV, *Shadow);
  }
}

/// On the stand-ins for the shadows of `extern __shared__` arrays.
static constexpr const char *DynamicSharedShadow = "enzyme_dynamic_shared";

SmallVector<GlobalVariable *, 2> createDynamicSharedShadows(Module &M) {
  SmallVector<GlobalVariable *, 2> StandIns;
  if (!isCudaModule(M))
    return StandIns;
  constexpr unsigned SharedAddressSpace = 3;
  SmallVector<GlobalVariable *, 2> Arrays;
  for (GlobalVariable &GV : M.globals())
    // Any type: programs often declare a byte array and cast it (a shadow
    // costs nothing where no derivative uses it).
    if (GV.getAddressSpace() == SharedAddressSpace && !GV.isConstant() &&
        !GV.hasInitializer() && !globalShadowOf(GV))
      Arrays.push_back(&GV);
  for (GlobalVariable *GV : Arrays) {
    auto *Shadow = new GlobalVariable(
        M, GV->getValueType(), /*isConstant=*/false,
        GlobalValue::ExternalLinkage, nullptr, GV->getName() + ".shadow",
        nullptr, GlobalValue::NotThreadLocal, SharedAddressSpace);
    Shadow->setAlignment(GV->getAlign());
    // It starts undefined like any shared memory.
    Shadow->setMetadata(MadeForSharedMemory, MDNode::get(M.getContext(), {}));
    Shadow->setMetadata(DynamicSharedShadow, MDNode::get(M.getContext(), {}));
    setGlobalShadow(*GV, *Shadow);
    StandIns.push_back(Shadow);
  }
  return StandIns;
}

bool isDynamicSharedShadow(const GlobalVariable &Shadow) {
  return Shadow.getMetadata(DynamicSharedShadow);
}

void clearGlobalShadow(GlobalVariable &GV) {
  GV.setMetadata(ShadowKind, nullptr);
}

bool shadowStartsUndefined(const GlobalVariable &GV) {
  GlobalVariable *Shadow = globalShadowOf(GV);
  return Shadow && Shadow->getMetadata(MadeForSharedMemory);
}

void removeUnusedSharedMemoryShadows(Module &M) {
  SmallVector<GlobalVariable *, 4> Unused;
  for (GlobalVariable &GV : M.globals())
    if (shadowStartsUndefined(GV)) {
      GlobalVariable *Shadow = globalShadowOf(GV);
      Shadow->removeDeadConstantUsers();
      if (Shadow->use_empty()) {
        GV.setMetadata(ShadowKind, nullptr);
        Unused.push_back(Shadow);
      }
    }
  for (GlobalVariable *Shadow : Unused)
    Shadow->eraseFromParent();
}

} // namespace enzyme
