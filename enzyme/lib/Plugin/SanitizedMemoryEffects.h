//===- SanitizedMemoryEffects.h - Memory effects under LTO sanitizers -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// AddressSanitizer, HWAddressSanitizer and MemorySanitizer instrument at the
/// end of the pre-link pipeline, so with `-fenzyme` (full LTO) the link-time
/// optimiser runs again over instrumented code. Memory effects that hold for
/// the program as written are false for the instrumented one: libm's `modf`
/// is declared `memory(argmem: write)`, but its interceptor reads the shadow
/// of the pointer it writes through. Dead-store elimination then deletes the
/// shadow store that brings a local into scope before such a call, and the
/// sanitizer reports a use after scope that the program does not have.
/// LLVM 21's sanitizers drop these effects themselves; for LLVM 19 the link
/// does it, before it optimises.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_SANITIZEDMEMORYEFFECTS_H
#define ENZYME_PLUGIN_SANITIZEDMEMORYEFFECTS_H

#include "llvm/IR/PassManager.h"

namespace enzyme {

/// Removes the memory effects of every function and call in a module that
/// holds sanitizer-instrumented code; leaves other modules untouched.
struct ForgetMemoryEffectsOfSanitizedCodePass
    : llvm::PassInfoMixin<ForgetMemoryEffectsOfSanitizedCodePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace enzyme

#endif // ENZYME_PLUGIN_SANITIZEDMEMORYEFFECTS_H
