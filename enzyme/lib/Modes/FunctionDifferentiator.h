//===- FunctionDifferentiator.h - One function, one signature --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the bodies of one augmented-forward / reverse pair from a prepared
/// copy of the function, in three steps, each in its own file:
///
///  1. plan (ReversePlan.cpp): what the reverse pass needs for each
///     instruction, and for each needed value whether the reverse pass
///     recomputes it or the forward pass pushes it on the tape: in the batch
///     of the block that uses it, or once, at the function's exit, when it is
///     computed once outside any loop;
///  2. augmented forward (AugmentedForward.cpp): the primal code plus shadow
///     pointers, shadow allocations, calls to callees' augmented functions,
///     and the tape pushes of the plan;
///  3. reverse (ReversePass.cpp): the blocks in reverse, each popping its
///     batch, rebuilding what it recomputes, then accumulating adjoints of
///     its instructions in reverse order and branching to the reverse of the
///     predecessor that the forward pass came from.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FUNCTIONDIFFERENTIATOR_H
#define ENZYME_MODES_FUNCTIONDIFFERENTIATOR_H

#include "Analysis/AccessIndex.h"
#include "Analysis/ActivityAnalysis.h"
#include "Analysis/BranchJoins.h"
#include "Analysis/CopyRecords.h"
#include "Analysis/MemoryTypes.h"
#include "Analysis/ParallelLoopReads.h"
#include "Analysis/ReversibleLoops.h"
#include "Analysis/UnmodifiedMemory.h"
#include "Core/ContextShadows.h"
#include "Core/Lanes.h"
#include "Modes/ReverseModeGenerator.h"
#include "Modes/SharedAdjoints.h"
#include "Rules/VectorIntrinsics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PointerIntPair.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

namespace enzyme {

/// A value the reverse pass needs: a primal value, its shadow, or (for a
/// basic block) the index of the predecessor the forward pass came from.
using NeededValue = llvm::PointerIntPair<llvm::Value *, 1, bool>;
inline NeededValue primalOf(llvm::Value *V) { return NeededValue(V, false); }
inline NeededValue shadowOf(llvm::Value *V) { return NeededValue(V, true); }

/// The additive identity of adjoints of type \p Ty (ReversePass.cpp).
llvm::Constant *zeroAdjoint(llvm::Type *Ty);

class FunctionDifferentiator {
public:
  FunctionDifferentiator(ReverseModeGenerator &Gen, const ReverseSignature &Sig,
                         llvm::Function &Prepared, const ReversePair &Pair,
                         llvm::FunctionAnalysisManager &FAM);

  /// Builds both bodies; false (with \p Failure filled) when some
  /// instruction cannot be differentiated.
  bool run(DifferentiationFailure &Failure);

private:
  // --- Planning (ReversePlan.cpp) ---------------------------------------
  bool plan();
  /// What the reverse pass needs to differentiate \p I.
  void collectNeeds(llvm::Instruction &I,
                    llvm::SmallVectorImpl<NeededValue> &Needs);
  /// Makes \p V available in the reverse block of \p UseBlock.
  void resolve(NeededValue V, llvm::BasicBlock *UseBlock, unsigned Depth = 0);
  bool isRecomputable(NeededValue V);
  /// Finds the loops whose reverse does nothing (SkippedLoops).
  void findSkippedLoops();
  /// The skipped loop \p BB is in, or null.
  const llvm::Loop *skippedLoopOf(const llvm::BasicBlock *BB) const;
  /// The counter \p I is when it is a pointer counter, whose shadow the
  /// reverse pass computes from the counter and its start.
  const LoopCounter *shadowCounter(const llvm::Instruction &I) const;
  /// Keeps \p V in a slot while the reverse pass runs \p RL: pushed when
  /// the loop exits, read by the reverse of \p UseBlock.
  void keepInLoopSlot(NeededValue V, const ReversibleLoop &RL,
                      llvm::BasicBlock *UseBlock);
  /// Plans to compute the last value of \p Counter when the reverse pass
  /// enters \p RL, instead of pushing it; false if that is not cheap.
  bool planCounterFinal(llvm::PHINode &Counter, const ReversibleLoop &RL,
                        unsigned Depth);
  /// The counter of \p RL has a slot in the reverse pass.
  bool hasCounterSlot(const ReversibleLoop &RL, llvm::PHINode *Counter) const;
  /// The values pushed at \p BB because loops exit into it, in push order.
  llvm::SmallVector<NeededValue, 4> loopExitPushes(llvm::BasicBlock *BB) const;
  bool isComputedOnce(llvm::Instruction *I) const;
  bool hasMultiplePredecessors(llvm::BasicBlock *BB) const;
  /// The alignment of the adjoint additions a load's reverse makes: the
  /// load's, or more where the address is known to be aligned.
  llvm::Align adjointAlignment(const llvm::LoadInst &Load) const;
  /// The callee signature a call site asks for.
  ReverseSignature calleeSignature(llvm::CallBase &Call) const;
  /// The pair a differentiated call calls: its callee's, or for a call
  /// through a pointer, dispatchers that take the pointer first. Fills
  /// \p CalleeSig; \p FixedBytes receives the callee's fixed tape size.
  const ReversePair *calleePair(llvm::CallBase &Call,
                                ReverseSignature &CalleeSig,
                                std::optional<uint64_t> *FixedBytes = nullptr);
  /// How a call is differentiated.
  enum class CallKind {
    Inactive,
    MathRule,
    Allocation,
    Deallocation,
    MemoryTransfer,
    MemorySet,
    /// A reduction or masked access (Rules/VectorIntrinsics.h).
    VectorIntrinsic,
    /// A shuffle of a float or double between GPU lanes (WarpShuffles.h).
    WarpShuffle,
    Differentiated,
  };
  CallKind classifyCall(llvm::CallBase &Call) const;
  /// \p Call frees (or reallocs) a block whose shadow the reverse of its
  /// allocation here does not free: one allocated by another function, or
  /// chosen among several. Its shadow is handed over (Core/ShadowMemory.h).
  bool freesBlockAllocatedElsewhere(llvm::CallBase &Call) const;
  /// \p Alloc, an allocation here, may be freed elsewhere: its shadow is
  /// recorded when made.
  bool mayBeFreedElsewhere(llvm::CallBase &Alloc) const {
    return !FreedAllocations.count(&Alloc);
  }
  /// The partial of some active argument of the math call \p Call
  /// mentions its argument \p Index.
  bool partialsMentionArgument(llvm::CallBase &Call, unsigned Index) const;
  /// How an integer store to shadowed memory is differentiated. Optimised
  /// code copies a double as `store i64 (load i64 p), q` and clears one as
  /// `store i64 0, q`. A store of bits computed here ends the adjoints of
  /// the bytes it overwrites, whatever they hold; a copy whose bytes
  /// nothing types is Untyped, an error (the engine does not guess).
  struct IntegerStoreRole {
    enum Kind {
      Inactive,
      /// A copy of floats: the adjoints move from destination to source.
      MoveAdjoints,
      /// Floats overwritten with bits from elsewhere: their adjoints end.
      ClearAdjoints,
      /// A copy of pointers: the shadow memory copies the shadows.
      MirrorShadows,
      /// A copy of pointers from memory without derivatives: the shadow
      /// memory gets their scratch shadows (Core/ScratchShadows.h).
      ScratchShadows,
      /// A copy of bytes that nothing says are integers, floats or
      /// addresses.
      Untyped,
    } What = Inactive;
    /// For MoveAdjoints / ClearAdjoints, the floating-point elements stored.
    llvm::Type *FloatTy = nullptr;
    unsigned Count = 0;
  };
  /// Works out the role of \p Store; the plan keeps it, since the search
  /// for what the bytes hold reads the function and its callers (\p Index
  /// files their accesses once for all the stores of the plan).
  IntegerStoreRole classifyIntegerStore(llvm::StoreInst &Store,
                                        AccessIndex &Index) const;
  /// The role the plan found for \p Store (Inactive for most stores).
  IntegerStoreRole integerStoreRole(llvm::StoreInst &Store) const {
    return IntegerStoreRoles.lookup(&Store);
  }
  /// \p V is a call through a pointer whose targets are known only at
  /// the link: a failure about it may go away there (a struct packed into
  /// an integer, PackedFloatLanes.h), so the request waits.
  bool waitsForTargets(const llvm::Value *V) const;
  bool fail(const llvm::Instruction *I, const llvm::Twine &Message,
            bool MissingDefinition = false);
  /// \p Copy (of \p Length bytes) copies memory whose contents nothing
  /// types: checked at run time where the run-time links, else an error.
  bool checkUntypedCopyAtRunTime(llvm::Instruction &Copy,
                                 std::optional<uint64_t> Length);

  // --- Lanes (vector reverse mode, Core/Lanes.h) -------------------------
  /// The type of the shadow, adjoint or gradient of a value of type \p Ty:
  /// one lane per direction of the signature's width.
  llvm::Type *derivativeType(llvm::Type *Ty) const {
    return shadowType(Ty, Sig.Width);
  }
  /// The type a needed value has in the reverse pass: a primal's own, a
  /// shadow's derivativeType, an i32 predecessor index for a block.
  llvm::Type *neededType(NeededValue V) const;
  /// The adjoint \p D (of a value of type \p Ty) times \p Factor, a
  /// primal value of type \p Ty, in every lane: one vector instruction for
  /// a scalar float.
  llvm::Value *scaleAdjoint(llvm::IRBuilder<> &B,
                            llvm::Instruction::BinaryOps Op, llvm::Value *D,
                            llvm::Value *Factor, llvm::Type *Ty);
  /// A constant's shadow, for code in \p In: the declared shadow of a
  /// global (one direction only), the one the request's context keeps, or
  /// none (null in every lane).
  llvm::Value *constantShadowOf(llvm::Constant *C, llvm::Function &In);

  // --- Fixed tapes (FixedTapeLayout.cpp) --------------------------------
  /// For a signature with a fixed tape: the offset of each block's batch
  /// and of each differentiated call's region; false (with a diagnostic)
  /// when the tape's size is not bounded at compile time.
  bool planFixedTape();
  /// The bytes of the batch \p BB pushes, in push order: its own values,
  /// the values loops exiting into it keep, and at the exit block the
  /// values pushed once.
  llvm::SmallVector<llvm::Type *, 8> batchTypes(llvm::BasicBlock &BB) const;
  /// The tape a call to a callee's pair gets at \p Call.
  llvm::Value *calleeTape(llvm::CallBase &Call, llvm::Value *Tape,
                          llvm::IRBuilder<> &B);

  // --- Augmented forward (AugmentedForward.cpp) -------------------------
  bool buildAugmented();
  llvm::Value *createShadow(llvm::Instruction &I, llvm::IRBuilder<> &B);
  /// The zeroed shadows (one per lane) of the block \p Call allocates.
  llvm::Value *createAllocationShadow(llvm::CallBase &Call,
                                      llvm::IRBuilder<> &B);
  llvm::Value *augmentedShadow(llvm::Value *PrimalInPrepared);
  bool augmentCall(llvm::CallBase &Call);
  bool augmentMemoryTransfer(llvm::MemTransferInst &Mem);
  /// A select or phi of pointers with a shadow needs one for every choice;
  /// false (with a diagnostic) when some choice is memory without one and
  /// the target has no scratch shadows.
  bool checkChoiceOfShadows(llvm::Instruction &I);
  /// The shadow of \p V where it goes into memory, a choice or a return
  /// with a shadow, made with \p B: a scratch shadow where it has none and
  /// needs one (Core/ScratchShadows.h).
  llvm::Value *shadowOrScratch(llvm::Value *V, llvm::IRBuilder<> &B);
  /// \p V needs a scratch shadow and the target has the run-time for it.
  bool takesScratchShadow(const llvm::Value *V) const;
  /// The augmented function's copy of \p V (constants are themselves).
  llvm::Value *augmentedValue(llvm::Value *V);
  llvm::Value *selectShadow(llvm::SelectInst &Select, llvm::IRBuilder<> &B);
  bool augmentStore(llvm::StoreInst &Store);
  /// A store to shared memory whose shadow starts as garbage zeroes the
  /// stored location's shadow.
  void zeroUndefinedShadowAt(llvm::StoreInst &Store);
  /// Whether \p Ptr points into memory whose shadow holds garbage until
  /// written: shared memory, here or where the caller passed it
  /// (ReverseSignature::UndefinedShadowArgs).
  UndefinedShadow undefinedShadowAt(const llvm::Value *Ptr) const;
  /// The integer \p Load reads, read from the shadow memory instead: how
  /// pointers that optimised code moves as integers get their shadows.
  llvm::Value *loadShadowBits(llvm::LoadInst &Load, llvm::IRBuilder<> &B);
  void addTapePushes();
  /// The most bytes one call pushes on its tape (\p Pushes: the batch each
  /// block pushes), callees included, when every loop that pushes has a
  /// constant trip count: a GPU thread's tape then fits its local memory.
  std::optional<uint64_t> tapeBound(
      const llvm::MapVector<llvm::BasicBlock *,
                            llvm::SmallVector<llvm::Value *, 8>> &Pushes) const;
  /// Per loop that can reserve tape room on entry, the bytes one iteration
  /// pushes (\p Pushes: the batch each block pushes).
  llvm::MapVector<llvm::Loop *, uint64_t> loopPushBytes(
      const llvm::MapVector<llvm::BasicBlock *,
                            llvm::SmallVector<llvm::Value *, 8>> &Pushes) const;

  // --- Reverse (ReversePass.cpp) ----------------------------------------
  bool buildReverse();
  void reverseBlock(llvm::BasicBlock &BB);
  bool reverseInstruction(llvm::Instruction &I, llvm::IRBuilder<> &B);
  /// atomicAdd: the added value's adjoint is read from the shadow.
  bool reverseAtomicAdd(llvm::AtomicRMWInst &RMW, llvm::IRBuilder<> &B);
  bool reverseCall(llvm::CallBase &Call, llvm::IRBuilder<> &B);

  // --- Adjoints of reads in a region's body (LoadAdjoints.cpp) -----------
  /// Adds \p D, the adjoint of \p Load, into the shadow \p Shadow of
  /// what it read: atomically where other threads may add there too.
  void accumulateLoadAdjoint(llvm::LoadInst &Load, llvm::Value *Shadow,
                             llvm::Value *D, llvm::IRBuilder<> &B);
  /// Adds the per-thread accumulators of privatized reads to their shadows
  /// (at the reverse pass's end), after a barrier where other threads may
  /// still be adding plainly.
  void flushPrivateAdjoints(llvm::IRBuilder<> &B);
  /// True in the reverse pass if every thread of the forward team passed
  /// its tile point checks (ParallelLoopReads.h): asked of the run-time
  /// once, at the reverse pass's entry.
  llvm::Value *teamAllowsPlainAdjoints();

  // --- SIMD operations (ReverseVectorOps.cpp) ---------------------------
  bool reverseShuffle(llvm::ShuffleVectorInst &Shuffle, llvm::Value *D,
                      llvm::IRBuilder<> &B);
  bool reverseVectorIntrinsic(llvm::CallBase &Call, VectorIntrinsic Kind,
                              llvm::IRBuilder<> &B);
  void collectVectorIntrinsicNeeds(llvm::CallBase &Call, VectorIntrinsic Kind,
                                   llvm::SmallVectorImpl<NeededValue> &Needs);
  void reverseMemoryTransfer(llvm::CallBase &Call, llvm::IRBuilder<> &B);
  void branchToPredecessors(llvm::BasicBlock &BB, llvm::IRBuilder<> &B);
  /// The value of a needed primal or shadow in the reverse block being
  /// built.
  llvm::Value *reverseValue(NeededValue V);
  llvm::Value *primal(llvm::Value *V) { return reverseValue(primalOf(V)); }
  llvm::Value *shadow(llvm::Value *V) { return reverseValue(shadowOf(V)); }
  llvm::Value *materialize(NeededValue V, llvm::IRBuilder<> &B);
  llvm::AllocaInst *adjointSlot(llvm::Value *V);
  llvm::AllocaInst *loopSlot(NeededValue V);
  /// Adds \p Delta to the adjoint of \p V (no-op for inactive values).
  void addAdjoint(llvm::Value *V, llvm::Value *Delta, llvm::IRBuilder<> &B);
  /// Reads the adjoint of \p V and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *V, llvm::IRBuilder<> &B);

  ReverseModeGenerator &Gen;
  const ReverseSignature &Sig;
  llvm::Function &Prep;
  ReversePair Pair;
  /// In a region's outlined body: the reads whose adjoints need no atomic
  /// addition. Before the activity analysis: its guards add to the body.
  std::optional<ParallelLoopReads> LoopReads;
  ActivityAnalysis Activity;
  /// Shadows of globals kept in the request's context.
  ContextShadowLookups ContextShadows;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  ReversibleLoops Loops;
  UnmodifiedMemory Unmodified;
  llvm::BasicBlock *ExitBlock = nullptr;
  DifferentiationFailure *Failure = nullptr;

  /// Loops no derivative flows through and nothing of which the reverse
  /// pass needs (a binary search for an index): the reverse pass goes from
  /// their exits straight to their preheader, and the forward pass records
  /// nothing of the way it went through them.
  llvm::SmallPtrSet<const llvm::Loop *, 4> SkippedLoops;

  /// The plan.
  llvm::DenseMap<llvm::BasicBlock *, llvm::SetVector<NeededValue>> Batches;
  llvm::SetVector<NeededValue> ExitBatch;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SetVector<NeededValue>> Recomputed;
  /// Divisions and pure math calls are recomputed too (GPU device code,
  /// where a thread's recorded values go through slow local memory).
  bool RecomputesMath = false;
  /// The module is GPU code with memory whose shadow starts undefined
  /// (shared memory, Core/GlobalShadows.h): stores there zero the shadow.
  bool SharedShadowsStartUndefined = false;
  /// Other threads run this code at the same time on shared memory (GPU
  /// device code, an OpenMP region's body): adjoints of reads are added
  /// atomically outside the thread's stack (SharedAdjoints.h).
  bool ThreadsShareMemory = false;
  /// GPU lanes grouped by the shadow address they add into, shared by the
  /// additions of one reverse block.
  WarpPeerGroups PeerGroups;
  /// The per-thread accumulators of privatized reads (value, shadow
  /// address) by their first load.
  llvm::DenseMap<const llvm::LoadInst *,
                 std::pair<llvm::AllocaInst *, llvm::AllocaInst *>>
      PrivateAdjoints;
  /// The answer of teamAllowsPlainAdjoints, once asked.
  llvm::Value *TeamAllowsPlain = nullptr;
  /// Per reversible loop, the values it pushes when it exits (loop-invariant
  /// values and counters); per block, those its reverse reads from slots.
  llvm::MapVector<const ReversibleLoop *, llvm::SetVector<NeededValue>>
      LoopExitValues;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SetVector<NeededValue>> SlotReads;
  /// Per reversible loop, the counters whose last value the reverse pass
  /// computes (from scalar evolution) when it enters the loop.
  llvm::DenseMap<const ReversibleLoop *,
                 llvm::MapVector<llvm::PHINode *, const llvm::SCEV *>>
      CounterFinals;
  llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> FreedAllocations;
  /// Blocks the function allocates whose values the reverse pass reloads:
  /// the augmented forward pass does not free them, their reverse does.
  llvm::SetVector<llvm::CallBase *> KeptAllocations;
  /// Integer stores to shadowed memory that move, clear or mirror floats or
  /// pointers, and the layouts of copies between shadowed memory: both
  /// passes use them.
  llvm::DenseMap<const llvm::StoreInst *, IntegerStoreRole> IntegerStoreRoles;
  llvm::DenseMap<const llvm::MemTransferInst *, CopyLayout> CopyLayouts;
  /// Copies of a length known at run time only of elements that hold
  /// pointers beside floats: the layout of each element (RecordCopies.h).
  llvm::DenseMap<const llvm::MemTransferInst *, CopyRecord> ElementRecords;
  /// Copies (memory transfers, integer stores) whose contents nothing
  /// types: the augmented function stops the program if one runs
  /// (UntypedCopyGuards.h).
  llvm::SmallPtrSet<const llvm::Instruction *, 4> UntypedCopies;
  /// Joins whose reverse branches on a recomputed or taped condition
  /// instead of a recorded predecessor index.
  llvm::DenseMap<llvm::BasicBlock *, DecidedJoin> DecidedJoins;

  /// Fixed tapes: per block, where its batch is; per differentiated call,
  /// where its callee's tape starts.
  llvm::DenseMap<const llvm::BasicBlock *, uint64_t> FixedBatchOffsets;
  llvm::DenseMap<const llvm::CallBase *, uint64_t> FixedCalleeOffsets;

  /// Augmented forward: prepared value -> augmented primal / shadow.
  llvm::ValueToValueMapTy AugValues;
  llvm::DenseMap<llvm::Value *, llvm::Value *> AugShadows;
  llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> AugPredIndex;
  llvm::Value *AugTape = nullptr;

  /// Reverse: per reverse block, the values it can use.
  llvm::DenseMap<NeededValue, llvm::Value *> RevGlobal;
  llvm::DenseMap<NeededValue, llvm::Value *> RevLocal;
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> Adjoints;
  llvm::DenseMap<NeededValue, llvm::AllocaInst *> LoopSlots;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  llvm::BasicBlock *RevEntry = nullptr;
  llvm::BasicBlock *RevReturn = nullptr;
  llvm::Value *RevTape = nullptr;
  llvm::Value *RevReturnAdjoint = nullptr;
  llvm::DenseMap<llvm::Argument *, llvm::Value *> RevArgs;
  llvm::DenseMap<llvm::Argument *, llvm::Value *> RevShadowArgs;
};

} // namespace enzyme

#endif // ENZYME_MODES_FUNCTIONDIFFERENTIATOR_H
