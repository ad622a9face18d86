//===- GlobalUsers.cpp - Functions that reach some globals ----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GlobalUsers.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// \p V, a constant, mentions a global for which \p Tracked holds.
static bool mentionsTracked(const Value *V,
                            function_ref<bool(const GlobalVariable &)> Tracked,
                            unsigned Depth = 0) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V))
    return Tracked(*GV);
  const auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE || Depth > 8)
    return false;
  return any_of(CE->operands(), [&](const Use &U) {
    return mentionsTracked(U.get(), Tracked, Depth + 1);
  });
}

void markGlobalUsers(Module &M, const GlobalUserMarks &Marks, bool Enabled,
                     function_ref<bool(const GlobalVariable &)> Tracked,
                     function_ref<bool(const Function &)> Reaches) {
  for (Function &F : M)
    F.removeFnAttr(Marks.Attr);
  if (NamedMDNode *Flag = M.getNamedMetadata(Marks.ModuleFlag))
    M.eraseNamedMetadata(Flag);
  if (!Enabled || none_of(M.globals(), [&](const GlobalVariable &GV) {
        return Tracked(GV);
      }))
    return;
  M.getOrInsertNamedMetadata(Marks.ModuleFlag);
  // Direct users, then their callers, to a fixed point.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.hasFnAttribute(Marks.Attr))
        continue;
      bool Touches = (Reaches && Reaches(F)) ||
                     any_of(instructions(F), [&](const Instruction &I) {
                       if (const auto *Call = dyn_cast<CallBase>(&I))
                         if (const Function *Callee = Call->getCalledFunction();
                             Callee && Callee->hasFnAttribute(Marks.Attr))
                           return true;
                       return any_of(I.operands(), [&](const Use &U) {
                         return mentionsTracked(U.get(), Tracked);
                       });
                     });
      if (Touches) {
        F.addFnAttr(Marks.Attr);
        Changed = true;
      }
    }
  }
}

bool mayReachMarkedGlobals(const CallBase &Call, const GlobalUserMarks &Marks) {
  if (const Function *Callee = Call.getCalledFunction())
    return Callee->hasFnAttribute(Marks.Attr);
  return !Call.isInlineAsm() &&
         Call.getModule()->getNamedMetadata(Marks.ModuleFlag) != nullptr;
}

} // namespace enzyme
