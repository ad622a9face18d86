//===- ForwardModeGenerator.h - Tangent functions ---------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forward (tangent) mode produces, for a function and an activity signature,
/// one function
///
///   Ret               fwd(args..., tangents...)   (the return carries none)
///   {Ret, Tangent}    fwd(args..., tangents...)   (it carries one)
///
/// that runs the function and, alongside every value that carries a
/// derivative, its tangent: the directional derivative along the tangents
/// of the arguments. A duplicated scalar's tangent is a value of its type; a
/// duplicated pointer's is a shadow pointer to memory of the same layout
/// holding the tangents of the floats and the shadows of the pointers that
/// the primal memory holds. No tape and no reversed control flow: the tangent
/// code runs in the primal's own blocks.
///
/// Calls are differentiated as functions (one tangent function per callee
/// signature, cached for the lifetime of the generator, so recursion works).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FORWARDMODEGENERATOR_H
#define ENZYME_MODES_FORWARDMODEGENERATOR_H

#include "Core/Activity.h"
#include "Core/Lanes.h"
#include "Modes/ReverseModeGenerator.h" // DifferentiationFailure

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace llvm {
class Function;
class FunctionType;
class Module;
class Type;
} // namespace llvm

namespace enzyme {

/// What a caller asks of a function in forward mode.
struct ForwardSignature {
  llvm::Function *Fn = nullptr;
  /// Per parameter: Const, or Dup (a tangent follows the primal arguments).
  /// DupNoNeed is served as Dup: the primal is computed anyway.
  llvm::SmallVector<Activity, 4> Args;
  /// The caller wants the tangent (or the shadow, for a pointer) of the
  /// result; the function then returns {primal, tangent}.
  bool ReturnTangent = false;
  /// Directions computed together (vector mode); the tangent of a value of
  /// type T has type shadowType(T, Width).
  unsigned Width = 1;
  /// Mutable globals without a declared shadow take theirs from the
  /// current context (`enzyme_context`, Core/ContextShadows.h). Callees
  /// inherit it.
  bool ContextShadows = false;
  /// Fields of the pointer arguments that hold pointers without a shadow.
  UnshadowedFieldOffsets UnshadowedFields;

  bool operator<(const ForwardSignature &O) const {
    return std::tie(Fn, Args, ReturnTangent, Width, ContextShadows,
                    UnshadowedFields) < std::tie(O.Fn, O.Args, O.ReturnTangent,
                                                 O.Width, O.ContextShadows,
                                                 O.UnshadowedFields);
  }
};

class UserRegistrations;
struct CustomForward;
class CalleeReturnShadows;

class ForwardModeGenerator {
public:
  /// \p Registrations (optional) are the user's marks: a function with a
  /// registered forward derivative is never differentiated from its body.
  ForwardModeGenerator(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
                       llvm::FunctionPassManager *Cleanup,
                       const UserRegistrations *Registrations = nullptr);
  ~ForwardModeGenerator();

  /// Returns the tangent function for \p Sig, generating it and those of its
  /// callees. On failure, fills \p Failure, removes everything generated for
  /// this request, and returns nullptr.
  llvm::Function *getOrCreate(const ForwardSignature &Sig,
                              DifferentiationFailure &Failure);

  /// The type of the tangent function of \p Sig.
  llvm::FunctionType *getTangentType(const ForwardSignature &Sig) const;

  /// Calls through pointers wait for link time (compile-time runs, where
  /// other modules may hold more possible targets).
  void deferIndirectCalls(bool Defer) { DeferIndirectCalls = Defer; }
  /// Calls through pointers wait for the link, where their targets are
  /// known.
  bool defersIndirectCalls() const { return DeferIndirectCalls; }

  llvm::Module &module() const { return M; }

  /// Where scratch shadows cannot be made (device code), what callees
  /// return without a shadow (UnshadowedReturns.h); null elsewhere.
  CalleeReturnShadows *unshadowedReturns() const {
    return UnshadowedReturnsOracle.get();
  }

private:
  friend class TangentBuilder;

  /// Generates (or returns) the tangent function without rolling back on
  /// failure; callees are generated through here.
  llvm::Function *generate(const ForwardSignature &Sig,
                           DifferentiationFailure &Failure);
  /// The tangent function of a function with a custom forward derivative:
  /// a call to the user's function.
  llvm::Function *generateCustom(const ForwardSignature &Sig,
                                 const CustomForward &Custom,
                                 DifferentiationFailure &Failure);
  /// The tangent function of an OpenMP region function: a fork of a team
  /// running its outlined body's tangent (ParallelRegions.h).
  llvm::Function *generateParallelRegion(const ForwardSignature &Sig,
                                         DifferentiationFailure &Failure);
  /// A dispatcher for calls through a pointer like \p Call with the
  /// activities of \p Shape (its Fn unused): it takes the pointer first,
  /// then the arguments of a tangent function, and calls the tangent
  /// function of the target the pointer names (IndirectCalls.h).
  llvm::Function *generateDispatch(const ForwardSignature &Shape,
                                   const llvm::CallBase &Call,
                                   DifferentiationFailure &Failure);
  /// A simplified private copy of \p F (prepareForDifferentiation).
  llvm::Function *prepare(llvm::Function &F);
  /// Tells LLVM that shadow and primal arguments do not overlap, then runs
  /// the post-AD cleanup pipeline on \p F.
  void cleanup(llvm::Function &F, const ForwardSignature &Sig);

  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  llvm::FunctionPassManager *Cleanup;
  const UserRegistrations *Registrations;
  std::unique_ptr<CalleeReturnShadows> UnshadowedReturnsOracle;
  std::map<ForwardSignature, llvm::Function *> Tangents;
  /// Everything generated since the outermost getOrCreate started.
  std::vector<ForwardSignature> Pending;
  struct DispatchKey {
    llvm::FunctionType *Type;
    ForwardSignature Shape;
    std::vector<llvm::Function *> Targets;
    bool operator<(const DispatchKey &O) const {
      return std::tie(Type, Shape, Targets) <
             std::tie(O.Type, O.Shape, O.Targets);
    }
  };
  std::map<DispatchKey, llvm::Function *> Dispatchers;
  std::vector<DispatchKey> PendingDispatchKeys;
  bool DeferIndirectCalls = false;
};

} // namespace enzyme

#endif // ENZYME_MODES_FORWARDMODEGENERATOR_H
