//===- MemoryAnnotations.cpp - What the user says memory holds ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/MemoryAnnotations.h"

#include "Analysis/MemoryTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// \p F is an annotation: some call of it is one (annotatedType).
static bool isAnnotation(const Function &F) {
  return any_of(F.users(), [](const User *U) {
    const auto *Call = dyn_cast<CallBase>(U);
    return Call && annotatedType(*Call);
  });
}

void finishMemoryAnnotations(Module &M, bool AtLink) {
  for (Function &F : make_early_inc_range(M)) {
    if (!isAnnotation(F))
      continue;
    if (!AtLink) {
      if (!F.isDeclaration())
        continue;
      // A declaration's debug info describes a declaration; a definition
      // with it breaks code generation.
      F.setSubprogram(nullptr);
      F.setLinkage(GlobalValue::InternalLinkage);
      F.addFnAttr(Attribute::NoInline);
      F.addFnAttr("enzyme_inactive");
      IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", &F));
      if (F.getReturnType()->isVoidTy())
        B.CreateRetVoid();
      else
        B.CreateRet(Constant::getNullValue(F.getReturnType()));
      continue;
    }
    for (User *U : make_early_inc_range(F.users()))
      if (auto *Call = dyn_cast<CallBase>(U); Call && Call->use_empty())
        Call->eraseFromParent();
    if (F.use_empty())
      F.eraseFromParent();
  }
}

} // namespace enzyme
