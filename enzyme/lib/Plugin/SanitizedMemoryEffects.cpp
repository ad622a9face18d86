//===- SanitizedMemoryEffects.cpp - Memory effects under LTO sanitizers ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/SanitizedMemoryEffects.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

static bool isInstrumentedBySanitizer(const Function &F) {
  return !F.isDeclaration() &&
         (F.hasFnAttribute(Attribute::SanitizeAddress) ||
          F.hasFnAttribute(Attribute::SanitizeHWAddress) ||
          F.hasFnAttribute(Attribute::SanitizeMemory));
}

PreservedAnalyses
ForgetMemoryEffectsOfSanitizedCodePass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (none_of(M, isInstrumentedBySanitizer))
    return PreservedAnalyses::all();

  bool Changed = false;
  // Intrinsics keep theirs: the sanitizers have already replaced the ones
  // they check (memcpy, memset) with calls into their runtime. A library
  // function becomes `nobuiltin`, which it is (calls reach the sanitizer's
  // interceptor), so that the link does not infer its effects again.
  for (Function &F : M) {
    if (F.isIntrinsic() || !F.hasFnAttribute(Attribute::Memory))
      continue;
    F.removeFnAttr(Attribute::Memory);
    if (F.isDeclaration())
      F.addFnAttr(Attribute::NoBuiltin);
    Changed = true;
  }
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || !Call->hasFnAttr(Attribute::Memory))
        continue;
      if (const Function *Callee = Call->getCalledFunction();
          Callee && Callee->isIntrinsic())
        continue;
      Call->removeFnAttr(Attribute::Memory);
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace enzyme
