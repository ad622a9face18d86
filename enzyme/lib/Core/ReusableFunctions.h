//===- ReusableFunctions.h - Helpers an earlier run left --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generated code calls helpers the engine defines once per module by name
/// (the tape's growth, adjoints of memcpy, run-time functions). A module may
/// already hold one from an earlier run, at compile time or in another
/// module linked in (CUDA emulation links the device code into the host's),
/// and the optimiser may since have changed it: an internal function gets a
/// faster calling convention or loses unused arguments. Calling such a
/// function as the engine made it is undefined behaviour that LLVM then
/// optimises on, so a changed helper is moved out of the way for its
/// existing callers and a fresh one made.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_REUSABLEFUNCTIONS_H
#define ENZYME_CORE_REUSABLEFUNCTIONS_H

#include "llvm/IR/Module.h"

namespace enzyme {

/// The definition of \p Name in \p M if it has type \p FT and the C calling
/// convention; otherwise nullptr, after renaming a local definition of that
/// name so that \p Name is free for a fresh one.
llvm::Function *findReusableFunction(llvm::Module &M, llvm::StringRef Name,
                                     llvm::FunctionType *FT);

} // namespace enzyme

#endif // ENZYME_CORE_REUSABLEFUNCTIONS_H
