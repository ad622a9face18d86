//===- ReusableFunctions.cpp - Helpers an earlier run left ----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ReusableFunctions.h"

using namespace llvm;

namespace enzyme {

Function *findReusableFunction(Module &M, StringRef Name, FunctionType *FT) {
  Function *F = M.getFunction(Name);
  if (!F || F->isDeclaration())
    return nullptr;
  if (F->getFunctionType() == FT && F->getCallingConv() == CallingConv::C)
    return F;
  if (F->hasLocalLinkage())
    F->setName(Name + ".stale");
  return nullptr;
}

} // namespace enzyme
