//===- CompileTimeBodies.cpp - Bodies kept for requests served at the link ===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/CompileTimeBodies.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme {

/// Function metadata naming the copy of the function's body.
static constexpr StringLiteral BodyKind = "enzyme.compile_time_body";

static Function *keptBody(const Function &F) {
  const MDNode *Node = F.getMetadata(BodyKind);
  if (!Node || Node->getNumOperands() != 1)
    return nullptr;
  auto *Value = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get());
  return Value ? dyn_cast<Function>(Value->getValue()) : nullptr;
}

/// A call of \p F still waits for the link: its copy would carry the
/// request, which the link-time run must find in one place only.
static bool holdsUnservedRequest(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && Callee->isDeclaration() &&
          Callee->getName().contains("__enzyme_"))
        return true;
  return false;
}

void keepBodiesForTheLink(Module &M) {
  SmallVector<Function *, 32> Originals;
  SmallPtrSet<const Function *, 32> Copies;
  for (Function &F : M)
    if (Function *Copy = keptBody(F))
      Copies.insert(Copy);
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasAvailableExternallyLinkage() &&
        !Copies.count(&F) && !keptBody(F) && !holdsUnservedRequest(F))
      Originals.push_back(&F);

  SmallVector<GlobalValue *, 32> Kept;
  for (Function *F : Originals) {
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(F, VMap);
    Copy->setName(F->getName() + ".enzyme.body");
    Copy->setLinkage(GlobalValue::InternalLinkage);
    Copy->setComdat(nullptr);
    // Out of the reach of what follows: no instrumentation, no optimisation.
    for (Attribute::AttrKind Kind :
         {Attribute::SanitizeAddress, Attribute::SanitizeHWAddress,
          Attribute::SanitizeMemory, Attribute::SanitizeThread,
          Attribute::SanitizeMemTag, Attribute::AlwaysInline,
          Attribute::MinSize, Attribute::OptimizeForSize})
      Copy->removeFnAttr(Kind);
    Copy->addFnAttr(Attribute::NoInline);
    Copy->addFnAttr(Attribute::OptimizeNone);
    F->setMetadata(BodyKind,
                   MDNode::get(M.getContext(), {ValueAsMetadata::get(Copy)}));
    Kept.push_back(Copy);
  }
  if (!Kept.empty())
    appendToCompilerUsed(M, Kept);
}

const Function &bodyToDifferentiate(const Function &F) {
  const Function *Copy = keptBody(F);
  return Copy && !Copy->isDeclaration() ? *Copy : F;
}

void dropBodiesKeptForTheLink(Module &M) {
  SmallPtrSet<Constant *, 32> Copies;
  for (Function &F : M) {
    if (Function *Copy = keptBody(F))
      Copies.insert(Copy);
    F.setMetadata(BodyKind, nullptr);
  }
  // Copies whose function the linker dropped (a duplicate linkonce_odr
  // definition, an inlined static function) are found by name.
  for (Function &F : M)
    if (F.hasLocalLinkage() && F.getName().contains(".enzyme.body"))
      Copies.insert(&F);
  if (Copies.empty())
    return;
  removeFromUsedLists(M, [&](Constant *C) { return Copies.count(C); });
  for (Constant *C : Copies)
    if (C->use_empty())
      cast<Function>(C)->eraseFromParent();
}

} // namespace enzyme
