//===- Tape.h - The stack between augmented forward and reverse -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The tape is a growable byte stack, `{ptr data, i64 size, i64 capacity}`,
/// shared by an augmented forward pass and its reverse pass and by every
/// callee they differentiate. The forward pass pushes what the reverse pass
/// needs (values, control-flow decisions) in batches, one per basic block;
/// the reverse pass pops the batches in the opposite order. A stack needs no
/// trip counts, so loops with unknown counts, recursion and callees all
/// follow one rule. Each value takes a slot rounded up to 8 bytes.
///
/// Tape accesses carry alias scopes (header, data) so that LLVM knows the
/// header never aliases the data nor any user memory: the size then stays in
/// a register across a loop's pushes and pops.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_TAPE_H
#define ENZYME_CORE_TAPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace enzyme {

class TapeBuilder {
public:
  /// \p Level is the higher-order nesting level of the derivatives this
  /// builder's tapes serve (0 when there is no nesting).
  explicit TapeBuilder(llvm::Module &M, unsigned Level = 0);

  llvm::StructType *getTapeType() const { return TapeTy; }

  /// Whether tapes keep their storage per thread (on CPUs), for the
  /// thread's next tapes (runtime/TapeStorage.c).
  void reuseStorage(bool Reuse) { ReuseStorage = Reuse; }

  /// Emits an empty tape in an alloca at \p B's insertion point; on CPUs it
  /// starts with storage the thread's earlier tapes left, on CUDA GPUs
  /// in local memory (\p Bound bytes when it never receives more and that
  /// is not too much).
  llvm::Value *createTape(llvm::IRBuilder<> &B,
                          std::optional<uint64_t> Bound = std::nullopt) const;
  /// Frees the tape's storage, or keeps it for the thread's next tape.
  void destroyTape(llvm::IRBuilder<> &B, llvm::Value *Tape) const;
  /// An empty tape whose header lives on the heap, for split mode and
  /// parallel regions, where the tape outlives the call that made it; on
  /// CPUs its storage is what the thread's earlier heap tapes left.
  llvm::Value *createHeapTape(llvm::IRBuilder<> &B) const;
  /// Frees a heap tape's header, and its storage or keeps it for the
  /// thread's next heap tapes.
  void destroyHeapTape(llvm::IRBuilder<> &B, llvm::Value *Tape) const;

  /// Pushes \p Values as one batch; a \p Reserved push skips the capacity
  /// check because reserve() made room for it.
  void push(llvm::IRBuilder<> &B, llvm::Value *Tape,
            llvm::ArrayRef<llvm::Value *> Values, bool Reserved = false) const;
  /// Makes room for \p Bytes (an i64) more bytes of pushes.
  void reserve(llvm::IRBuilder<> &B, llvm::Value *Tape,
               llvm::Value *Bytes) const;
  /// The bytes a batch of \p Values takes.
  uint64_t batchSize(llvm::ArrayRef<llvm::Value *> Values) const;
  /// Pops a batch pushed with values of \p Types; returns them in push order.
  llvm::SmallVector<llvm::Value *, 8>
  pop(llvm::IRBuilder<> &B, llvm::Value *Tape,
      llvm::ArrayRef<llvm::Type *> Types) const;

  /// A buffer of \p Bytes bytes in \p F's frame for a fixed tape (split
  /// mode's inline tapes, GPU gradients whose tape size is fixed).
  llvm::AllocaInst *createFixedTape(llvm::Function &F, uint64_t Bytes,
                                    const llvm::Twine &Name) const;

  /// A fixed tape (split mode's inline tapes): no header, each batch at an
  /// offset known at compile time from \p Base, packed without padding.
  void store(llvm::IRBuilder<> &B, llvm::Value *Base, uint64_t Offset,
             llvm::ArrayRef<llvm::Value *> Values) const;
  llvm::SmallVector<llvm::Value *, 8>
  load(llvm::IRBuilder<> &B, llvm::Value *Base, uint64_t Offset,
       llvm::ArrayRef<llvm::Type *> Types) const;
  /// The bytes a fixed tape's batch of \p Types takes.
  uint64_t packedSize(llvm::ArrayRef<llvm::Type *> Types) const;

  /// Tells LLVM that the loads, stores and memory intrinsics of \p F that
  /// are not tape accesses never touch the tape.
  void markDisjointFromTape(llvm::Function &F) const;

private:
  uint64_t slotSize(llvm::Type *Ty) const;
  /// Grows the storage on a cold path unless it holds \p Needed bytes;
  /// leaves \p B in the block after the check.
  void ensureCapacity(llvm::IRBuilder<> &B, llvm::Value *Tape,
                      llvm::Value *Needed) const;
  /// Tags \p I as an access to the tape's header, or to its data.
  llvm::Instruction *header(llvm::Instruction *I) const;
  llvm::Instruction *data(llvm::Instruction *I) const;
  llvm::Function *getOrCreateGrowFunction() const;
  bool poolsStorage() const;
  void takeKeptStorage(llvm::IRBuilder<> &B, llvm::Value *Tape) const;
  void giveOrFreeStorage(llvm::IRBuilder<> &B, llvm::Value *Tape) const;

  llvm::Module &M;
  llvm::StructType *TapeTy;
  llvm::MDNode *HeaderScopes, *DataScopes, *AllScopes;
  bool ReuseStorage = true;
};

} // namespace enzyme

#endif // ENZYME_CORE_TAPE_H
