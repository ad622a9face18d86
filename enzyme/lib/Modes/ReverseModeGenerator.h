//===- ReverseModeGenerator.h - Augmented forward + reverse pairs -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reverse mode produces, for a function and an activity signature, a pair:
///
///   Ret  aug(args..., shadows..., ptr tape)   runs the function and pushes
///                                             what the reverse pass needs;
///   Grad rev(args..., shadows..., [dret], ptr tape)
///                                             pops it and accumulates
///                                             adjoints; returns the gradients
///                                             of the by-value active args.
///
/// Calls inside a differentiated function are differentiated the same way
/// (their own pair, sharing the tape), so recursion and callees called from
/// several places with different activities need no inlining. Pairs are
/// cached per signature for the lifetime of the generator.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_REVERSEMODEGENERATOR_H
#define ENZYME_MODES_REVERSEMODEGENERATOR_H

#include "Core/Activity.h"
#include "Core/DifferentiationFailure.h"
#include "Core/Tape.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class StructType;
} // namespace llvm

namespace enzyme {

struct CustomGradient;
class UserRegistrations;
class CalleeReturnShadows;

/// What a caller asks of a function.
/// Whether a pointer points into memory whose shadow starts undefined:
/// Maybe where only the run time can tell (GPU code's pointers may point
/// into shared memory or elsewhere).
enum class UndefinedShadow : uint8_t { No, Yes, Maybe };

struct ReverseSignature {
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<Activity, 4> Args;
  /// The function returns a differentiable value whose adjoint the caller
  /// passes to the reverse function.
  bool ReturnActive = false;
  /// The function returns a pointer whose shadow the caller needs.
  bool ReturnShadow = false;
  /// Nothing writes the function's inputs between its augmented forward and
  /// its reverse pass (true for a request, whose two passes run back to
  /// back), so the reverse pass may reload values from memory the function
  /// itself never writes.
  bool InputsKeptUntilReverse = false;
  /// Per parameter (empty when none): the caller does not write the memory
  /// this pointer argument points to between the two passes
  /// (`enzyme_nocache` in split mode), so the reverse pass may reload values
  /// the function reads there and never writes.
  llvm::SmallVector<bool, 4> KeptArgs;
  /// The tape has a layout fixed at compile time (split mode's inline
  /// tapes, `enzyme_allocated`): each batch at a constant offset from the
  /// tape pointer, which points to the caller's buffer. Callees share it.
  bool FixedTape = false;
  /// Directions computed together (vector reverse mode): the shadow, the
  /// adjoint and the gradient of a value of type T have type
  /// shadowType(T, Width), one direction per lane.
  unsigned Width = 1;
  /// Mutable globals without a declared shadow take theirs from the
  /// current context (`enzyme_context`, Core/ContextShadows.h). Callees
  /// inherit it.
  bool ContextShadows = false;
  /// Fields of the pointer arguments that hold pointers without a shadow.
  UnshadowedFieldOffsets UnshadowedFields;
  /// Per parameter (empty when none): whether the argument points into
  /// memory whose shadow holds garbage until written (shared memory,
  /// Core/GlobalShadows.h), where the augmented forward zeroes the shadow of
  /// what it stores.
  llvm::SmallVector<UndefinedShadow, 4> UndefinedShadowArgs;
  /// The function runs in every thread of an OpenMP team at once (a
  /// region's body and its callees, which inherit it): its reverse pass
  /// adds adjoints atomically outside the thread's stack.
  bool Parallel = false;
  /// The function is a region's outlined body itself: every thread of the
  /// team enters it with the same shared arguments (callees do not
  /// inherit it; Analysis/ParallelLoopReads.h).
  bool TeamEntry = false;

  bool operator<(const ReverseSignature &O) const {
    return std::tie(Fn, Args, ReturnActive, ReturnShadow,
                    InputsKeptUntilReverse, KeptArgs, FixedTape, Width,
                    ContextShadows, UnshadowedFields, UndefinedShadowArgs,
                    Parallel, TeamEntry) <
           std::tie(O.Fn, O.Args, O.ReturnActive, O.ReturnShadow,
                    O.InputsKeptUntilReverse, O.KeptArgs, O.FixedTape, O.Width,
                    O.ContextShadows, O.UnshadowedFields, O.UndefinedShadowArgs,
                    O.Parallel, O.TeamEntry);
  }
};

struct ReversePair {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Reverse = nullptr;
};

class ReverseModeGenerator {
public:
  /// \p Registrations (may be null) holds the user's custom gradients;
  /// \p Level is the higher-order nesting level it serves (its tapes' alias
  /// scopes are its own).
  ReverseModeGenerator(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
                       llvm::FunctionPassManager *Cleanup,
                       const UserRegistrations *Registrations = nullptr,
                       unsigned Level = 0);
  ~ReverseModeGenerator();

  /// Returns the pair for \p Sig, generating it and the pairs of its callees.
  /// On failure, fills \p Failure, removes everything generated for this
  /// request, and returns nullptr.
  const ReversePair *getOrCreate(const ReverseSignature &Sig,
                                 DifferentiationFailure &Failure);

  /// The types of the two functions of a pair, derivable from a signature.
  llvm::FunctionType *getAugmentedType(const ReverseSignature &Sig) const;
  llvm::FunctionType *getReverseType(const ReverseSignature &Sig) const;

  /// The gradient function made earlier for \p Sig by a request, if any;
  /// requests with the same signature share one.
  llvm::Function *&gradientFunction(const ReverseSignature &Sig) {
    return GradientFunctions[Sig];
  }

  const TapeBuilder &tape() const { return Tape; }
  /// The bytes the fixed tape of a pair generated for \p Sig (with
  /// FixedTape set) takes, including its callees'; nullopt while the pair
  /// is being generated (a recursive call).
  std::optional<uint64_t> fixedTapeBytes(const ReverseSignature &Sig) const {
    auto It = FixedTapeSizes.find(Sig);
    if (It == FixedTapeSizes.end())
      return std::nullopt;
    return It->second;
  }
  /// The most bytes the growable tape of the pair generated for \p Sig
  /// (without FixedTape) receives in one call, callees included, when every
  /// loop that records has a constant trip count; nullopt otherwise.
  std::optional<uint64_t> tapeBound(const ReverseSignature &Sig) const {
    auto It = TapeBounds.find(Sig);
    if (It == TapeBounds.end())
      return std::nullopt;
    return It->second;
  }
  const UserRegistrations *registrations() const { return Registrations; }
  /// Where scratch shadows cannot be made (device code), what callees
  /// return without a shadow (UnshadowedReturns.h); null elsewhere.
  CalleeReturnShadows *unshadowedReturns() const {
    return UnshadowedReturnsOracle.get();
  }
  /// Calls through pointers wait for link time (compile-time runs, where
  /// other modules may hold more possible targets).
  void deferIndirectCalls(bool Defer) { DeferIndirectCalls = Defer; }
  /// Calls through pointers wait for the link, where their targets are
  /// known.
  bool defersIndirectCalls() const { return DeferIndirectCalls; }
  /// Gradient functions may keep tape storage per thread for the next
  /// gradient (not when generated code is differentiated in turn).
  void reuseTapeStorage(bool Reuse) { Tape.reuseStorage(Reuse); }
  llvm::Module &module() const { return M; }

  /// Tells LLVM what the memory accesses of \p F, generated for \p Sig
  /// (its arguments start with the primal's and their shadows), cannot
  /// overlap: the tape, and shadow versus primal arguments. Then runs the
  /// post-AD cleanup pipeline on it.
  void cleanup(llvm::Function &F, const ReverseSignature &Sig);

private:
  friend class FunctionDifferentiator;

  /// Generates (or returns) the pair without rolling back on failure.
  const ReversePair *generate(const ReverseSignature &Sig,
                              DifferentiationFailure &Failure);
  /// A pair of dispatchers for calls through a pointer like \p Call with
  /// the activities of \p Shape (its Fn unused): each takes the pointer
  /// first, then the arguments of a pair, and calls the pair of the target
  /// the pointer names (IndirectCalls.cpp). \p FixedBytes, if given,
  /// receives the largest fixed tape of the targets.
  const ReversePair *generateDispatch(const ReverseSignature &Shape,
                                      const llvm::CallBase &Call,
                                      DifferentiationFailure &Failure,
                                      uint64_t *FixedBytes = nullptr);
  /// The pair of a function with a custom gradient: calls to the user's
  /// functions.
  const ReversePair *generateCustom(const ReverseSignature &Sig,
                                    const CustomGradient &Custom,
                                    DifferentiationFailure &Failure);
  /// The pair of an OpenMP region function: forks of teams running the
  /// pair of its outlined body (ParallelRegions.h).
  const ReversePair *generateParallelRegion(const ReverseSignature &Sig,
                                            DifferentiationFailure &Failure);
  /// A simplified private copy of \p F: promoted to SSA, one return block.
  llvm::Function *prepare(llvm::Function &F);
  void discard(llvm::Function *F);
  /// \p F, or a function it calls, waits at a barrier of its block or warp
  /// (unoptimised cooperative groups' `block.sync()` calls
  /// `__syncthreads` in a function of its own).
  bool reachesThreadBarrier(const llvm::Function &F);

  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  llvm::FunctionPassManager *Cleanup;
  const UserRegistrations *Registrations;
  std::unique_ptr<CalleeReturnShadows> UnshadowedReturnsOracle;
  TapeBuilder Tape;
  std::map<ReverseSignature, ReversePair> Pairs;
  std::map<ReverseSignature, uint64_t> FixedTapeSizes;
  std::map<ReverseSignature, uint64_t> TapeBounds;
  struct DispatchKey {
    llvm::FunctionType *Type;
    ReverseSignature Shape;
    std::vector<llvm::Function *> Targets;
    bool operator<(const DispatchKey &O) const {
      return std::tie(Type, Shape, Targets) <
             std::tie(O.Type, O.Shape, O.Targets);
    }
  };
  /// Dispatchers, with the largest fixed tape of their targets.
  std::map<DispatchKey, std::pair<ReversePair, uint64_t>> Dispatchers;
  std::vector<DispatchKey> PendingDispatchKeys;
  bool DeferIndirectCalls = false;
  /// Functions generated beside pairs (dispatchers, the tasks of parallel
  /// regions), erased with them when a request fails.
  std::vector<llvm::Function *> PendingHelpers;
  std::map<ReverseSignature, llvm::Function *> GradientFunctions;
  /// Everything generated since the outermost getOrCreate started.
  std::vector<llvm::Function *> Pending;
  std::vector<ReverseSignature> PendingSignatures;
  /// reachesThreadBarrier's answers.
  llvm::DenseMap<const llvm::Function *, bool> ReachesBarrier;
};

} // namespace enzyme

#endif // ENZYME_MODES_REVERSEMODEGENERATOR_H
