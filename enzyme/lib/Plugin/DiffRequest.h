//===- DiffRequest.h - One __enzyme_* call, parsed and checked --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_DIFFREQUEST_H
#define ENZYME_PLUGIN_DIFFREQUEST_H

#include "Core/Activity.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

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

/// The mode an `__enzyme_*` function name asks for, if it is one.
std::optional<RequestMode> requestModeOf(llvm::StringRef Name);

/// What a request's function argument names at compile time: a Function,
/// an Argument of the enclosing function (a function passed in, see
/// specializeFunctionArguments), or nullptr.
llvm::Value *resolveFunctionValue(llvm::Value *V, unsigned Depth = 0);

/// Makes requests whose function is a parameter of the enclosing function
/// constant, by cloning the enclosing function for each call site that
/// passes a known function (templates taking a function, at -O0).
void specializeFunctionArguments(llvm::Module &M);

/// Finds the `__enzyme_*` calls of \p M and parses them. Malformed calls are
/// reported as errors at their location and left out.
llvm::SmallVector<DiffRequest, 4> collectRequests(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_PLUGIN_DIFFREQUEST_H
