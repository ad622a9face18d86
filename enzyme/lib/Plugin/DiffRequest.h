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
#include "llvm/IR/ValueHandle.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

/// What an `__enzyme_*` call asks for.
enum class RequestMode {
  /// `__enzyme_autodiff`: the gradient, both passes at once.
  Reverse,
  /// `__enzyme_fwddiff`: the tangent.
  Forward,
  /// `__enzyme_augmentfwd`: the forward half of split mode; returns a tape.
  AugmentedForward,
  /// `__enzyme_reverse`: the reverse half of split mode; consumes the tape.
  ReverseSplit,
  /// `__enzyme_augmentsize`: the bytes an inline tape needs.
  AugmentSize,
  /// `__enzyme_batch`: the function evaluated on `enzyme_width` lanes; no
  /// derivative.
  Batch,
};

/// The activity the user gave the result of the function.
enum class ResultActivity { Default, Const, Active };

/// A differentiation request: the function, and per parameter its activity,
/// its value (converted to the parameter's type) and its shadow.
struct DiffRequest {
  llvm::CallBase *Call = nullptr;
  RequestMode Mode = RequestMode::Reverse;
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<Activity, 4> Activities;
  /// Values are tracked: lowering an earlier request of the same function
  /// replaces its call, whose result a later request may take as an
  /// argument (the tape of split mode).
  llvm::SmallVector<llvm::WeakTrackingVH, 4> Primals;
  /// Per parameter: the shadow pointer of a duplicated pointer, or in
  /// forward mode the tangent of a duplicated scalar; nullptr otherwise.
  llvm::SmallVector<llvm::WeakTrackingVH, 4> Shadows;
  /// Where the result goes when the call returns it through memory.
  llvm::WeakTrackingVH StructReturn;
  llvm::Type *StructReturnType = nullptr;
  /// `enzyme_primal_return`: the call also returns the primal result.
  bool ReturnPrimal = false;
  /// `enzyme_const_return` / `enzyme_active_return`: whether reverse and
  /// split mode seed the result (by default: when it is a float).
  ResultActivity ReturnActivity = ResultActivity::Default;
  /// `enzyme_width, N`: directions computed together (vector mode).
  unsigned Width = 1;
  /// `enzyme_allocated, SIZE`: the tape is stored inline, in SIZE bytes of
  /// the caller's memory (split mode).
  std::optional<uint64_t> AllocatedTapeBytes;
  /// `__enzyme_reverse`: the tape (given with `enzyme_tape` or last), and
  /// the adjoint of the function's result when it returns a float.
  llvm::WeakTrackingVH Tape;
  llvm::WeakTrackingVH ReturnAdjoint;
  /// `enzyme_context, ctx`: mutable globals without a declared shadow take
  /// theirs from ctx (Core/ContextShadows.h).
  llvm::WeakTrackingVH Context;
  /// Per parameter: `enzyme_nocache` (split mode), the caller's promise that
  /// the memory the pointer reaches is not written between the two halves.
  llvm::SmallVector<bool, 4> NoCache;
  /// `__enzyme_batch`, per parameter: its Width values, one per lane
  /// (`enzyme_vector`), or one value that every lane shares
  /// (`enzyme_scalar`); converted to the parameter's type.
  llvm::SmallVector<llvm::SmallVector<llvm::WeakTrackingVH, 4>, 4> Lanes;
};

/// The mode an `__enzyme_*` function name asks for, if it is one.
std::optional<RequestMode> requestModeOf(llvm::StringRef Name);

/// The user-facing name of a request mode's entry point.
llvm::StringRef requestEntryName(RequestMode Mode);

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
