//===- TangentBuilder.h - One tangent function ------------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the body of one tangent function from a prepared copy of the
/// function: a clone of the primal code in which each instruction that
/// carries a derivative is followed by the code of its tangent. The rules are
/// split by family:
///
///  - TangentBuilder.cpp: values, arithmetic, casts, choices, vectors,
///    aggregates, phis and the return;
///  - TangentMemory.cpp: loads and stores through shadows, new memory and
///    its shadow, memcpy / memmove / memset, integer copies of floats and
///    pointers;
///  - TangentCalls.cpp: math functions (from the declarative table of
///    partials: ẏ = Σ ∂f/∂xᵢ · ẋᵢ) and calls of differentiated functions;
///  - TangentLanes.cpp: vector mode. With Width N > 1 a tangent of type T is
///    an [N x T] (N directions, N shadow pointers); every rule applies its
///    scalar code to each lane through perLane / forEachLane, while primal
///    values and partials are computed once.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_TANGENTBUILDER_H
#define ENZYME_MODES_TANGENTBUILDER_H

#include "Analysis/ActivityAnalysis.h"
#include "Core/ContextShadows.h"
#include "Modes/ForwardModeGenerator.h"
#include "Rules/VectorIntrinsics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace enzyme {

/// The activities forward mode's analysis reads: a duplicated scalar is an
/// active value (Out), a duplicated pointer has a shadow (Dup).
llvm::SmallVector<Activity, 4> analysisActivities(const ForwardSignature &Sig);

class TangentBuilder {
public:
  /// Fills \p Tangent, an empty function of Gen.getTangentType(Sig), from
  /// \p Prepared, the prepared copy of Sig.Fn.
  TangentBuilder(ForwardModeGenerator &Gen, const ForwardSignature &Sig,
                 llvm::Function &Prepared, llvm::Function &Tangent);

  /// Builds the body; false (with \p Failure filled) when some instruction
  /// cannot be differentiated.
  bool run(DifferentiationFailure &Failure);

private:
  // --- Values (TangentBuilder.cpp) --------------------------------------
  /// The copy of a prepared value in the tangent function.
  llvm::Value *primal(llvm::Value *V);
  /// The tangent of a prepared value: its directional derivative for a
  /// floating-point value, its shadow for a pointer, zero (null) for a value
  /// that carries none. Every rule reads tangents through here.
  llvm::Value *tangent(llvm::Value *V);
  void setTangent(llvm::Value *V, llvm::Value *T) { Tangents[V] = T; }
  /// The type of the tangent of a value of type \p Ty.
  llvm::Type *tangentType(llvm::Type *Ty) const {
    return shadowType(Ty, Sig.Width);
  }
  /// V has a derivative or a shadow that the tangent code must compute.
  bool carries(const llvm::Value *V) const {
    return Activity.isActive(V) || Activity.isShadowed(V);
  }
  /// \p Terms summed; zero of \p Ty when there are none.
  llvm::Value *sum(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Terms,
                   llvm::Type *Ty);
  /// \p V is a call through a pointer whose targets are known only at
  /// the link: a failure about it may go away there (a struct packed into
  /// an integer, PackedFloatLanes.h), so the request waits.
  bool waitsForTargets(const llvm::Value *V) const;
  bool fail(const llvm::Instruction *I, const llvm::Twine &Message,
            bool MissingDefinition = false);

  /// The tangent of one non-call, non-memory instruction.
  bool differentiate(llvm::Instruction &I, llvm::IRBuilder<> &B);
  /// A select or phi of pointers with a shadow needs one for every choice:
  /// false (with a diagnostic) when some choice is memory without one and
  /// the target has no scratch shadows.
  bool checkChoiceOfShadows(llvm::Instruction &I);
  /// The shadow of \p V where it goes into memory, a choice or a return
  /// with a shadow, made with \p B: a scratch shadow where it has none and
  /// needs one (Core/ScratchShadows.h).
  llvm::Value *tangentOrScratch(llvm::Value *V, llvm::IRBuilder<> &B);
  /// \p V needs a scratch shadow and the target has the run-time for it.
  bool takesScratchShadow(const llvm::Value *V) const;
  void buildReturn(llvm::ReturnInst &Ret);

  // --- Lanes (TangentLanes.cpp) -----------------------------------------
  /// The tangent of type tangentType(\p Ty) whose lane k is \p Rule applied
  /// to lane k of each of \p Ts (width 1: \p Rule applied to \p Ts).
  llvm::Value *perLane(
      llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Ts, llvm::Type *Ty,
      llvm::function_ref<llvm::Value *(llvm::ArrayRef<llvm::Value *>)> Rule);
  /// \p Rule applied to lane k of each of \p Ts, for every lane: the
  /// shadow-memory effects (stores, copies, frees) of every direction.
  void
  forEachLane(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Ts,
              llvm::function_ref<void(llvm::ArrayRef<llvm::Value *>)> Rule);

  // --- Memory (TangentMemory.cpp) ---------------------------------------
  void differentiateAlloca(llvm::AllocaInst &Alloca, llvm::IRBuilder<> &B);
  void differentiateLoad(llvm::LoadInst &Load, llvm::IRBuilder<> &B);
  bool differentiateStore(llvm::StoreInst &Store, llvm::IRBuilder<> &B);
  /// atomicAdd: the same addition of the tangents in shadow memory.
  void differentiateAtomicAdd(llvm::AtomicRMWInst &RMW, llvm::IRBuilder<> &B);
  /// A store of an integer to shadowed memory: a copy or clearing of
  /// floats or pointers that optimised code made an integer one.
  bool differentiateIntegerStore(llvm::StoreInst &Store, llvm::IRBuilder<> &B);
  /// The integer \p Load reads, read from the shadow memory instead.
  llvm::Value *loadShadowBits(llvm::LoadInst &Load, llvm::IRBuilder<> &B);
  bool differentiateMemIntrinsic(llvm::MemIntrinsic &Mem, llvm::IRBuilder<> &B);
  void differentiateAllocation(llvm::CallBase &Call, llvm::IRBuilder<> &B);
  void differentiateDeallocation(llvm::CallBase &Call, llvm::IRBuilder<> &B);

  // --- Calls (TangentCalls.cpp) -----------------------------------------
  bool differentiateCall(llvm::CallBase &Call, llvm::IRBuilder<> &B);
  bool differentiateMathCall(llvm::CallBase &Call, llvm::IRBuilder<> &B);
  /// Reductions and masked accesses (TangentVectorOps.cpp).
  bool differentiateVectorIntrinsic(llvm::CallBase &Call, VectorIntrinsic Kind,
                                    llvm::IRBuilder<> &B);
  /// Replaces the call by a call of the callee's tangent function.
  bool callTangentFunction(llvm::CallBase &Call);
  /// Why \p Call cannot be differentiated as a function, or "".
  bool checkDifferentiableCallee(llvm::CallBase &Call);
  ForwardSignature calleeSignature(llvm::CallBase &Call) const;

  ForwardModeGenerator &Gen;
  const ForwardSignature &Sig;
  llvm::Function &Prep;
  llvm::Function &Out;
  ActivityAnalysis Activity;
  /// Shadows of globals kept in the request's context.
  ContextShadowLookups ContextShadows;
  DifferentiationFailure *Failure = nullptr;
  /// Prepared value -> its copy in Out (follows replacements).
  llvm::ValueToValueMapTy Primals;
  /// Prepared value -> its tangent in Out.
  llvm::DenseMap<llvm::Value *, llvm::Value *> Tangents;
};

} // namespace enzyme

#endif // ENZYME_MODES_TANGENTBUILDER_H
