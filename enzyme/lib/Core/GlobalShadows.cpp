//===- GlobalShadows.cpp - Globals whose shadow the user declared ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GlobalShadows.h"
#include "Core/GlobalUsers.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/ReusableFunctions.h"

#include "Analysis/ActivityAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
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
  // A kernel may read or write the `__device__` variables whose shadows the
  // program declares, whatever its arguments; the host sees its stub only.
  markGlobalUsers(
      M, ShadowedGlobalUsers, /*Enabled=*/true,
      [](const GlobalVariable &GV) { return globalShadowOf(GV) != nullptr; },
      [](const Function &F) {
        return kernelNameOfStub(F.getName()).has_value();
      });
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

bool anyShadowStartsUndefined(const Module &M) {
  return any_of(M.globals(), [](const GlobalVariable &GV) {
    return shadowStartsUndefined(GV);
  });
}

void emitZeroShadowIfShared(IRBuilder<> &B, Value *Primal, Value *Shadow,
                            uint64_t Bytes) {
  // `void (ptr primal, ptr shadow, i64 bytes)`, a branch inlined after AD:
  // the augmented forward is built without splitting blocks.
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false);
  const char *Name = "enzyme.zero.shadow.if.shared";
  Function *F = findReusableFunction(M, Name, FT);
  if (!F) {
    F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(InlinedAfterAD);
    auto *Entry = BasicBlock::Create(Ctx, "entry", F);
    auto *Zero = BasicBlock::Create(Ctx, "shared", F);
    auto *Done = BasicBlock::Create(Ctx, "done", F);
    IRBuilder<> E(Entry);
    E.CreateCondBr(
        E.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {}, {F->getArg(0)}),
        Zero, Done);
    IRBuilder<> Z(Zero);
    Z.CreateMemSet(F->getArg(1), Z.getInt8(0), F->getArg(2), MaybeAlign());
    Z.CreateBr(Done);
    IRBuilder<>(Done).CreateRetVoid();
  }
  B.CreateCall(F, {Primal, Shadow, B.getInt64(Bytes)});
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
