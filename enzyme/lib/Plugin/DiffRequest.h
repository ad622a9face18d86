//===- DiffRequest.h - One __enzyme_* call, parsed and checked --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_DIFFREQUEST_H
#define ENZYME_PLUGIN_DIFFREQUEST_H

#include "Core/Activity.h"

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

enum class RequestMode { Reverse, Forward, AugmentedForward, ReverseSplit };

/// A differentiation request: the function, and per parameter its activity,
/// its value (converted to the parameter's type) and its shadow.
struct DiffRequest {
  llvm::CallBase *Call = nullptr;
  RequestMode Mode = RequestMode::Reverse;
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<Activity, 4> Activities;
  llvm::SmallVector<llvm::Value *, 4> Primals;
  llvm::SmallVector<llvm::Value *, 4> Shadows;
  /// Where the gradients go when the call returns them through memory.
  llvm::Value *StructReturn = nullptr;
  llvm::Type *StructReturnType = nullptr;
};

/// Finds the `__enzyme_*` calls of \p M and parses them. Malformed calls are
/// reported as errors at their location and left out.
llvm::SmallVector<DiffRequest, 4> collectRequests(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_PLUGIN_DIFFREQUEST_H
