//===- UnmodifiedMemory.h - Memory a function never writes -----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds loads from memory that nothing in the function writes (inputs read
/// through arguments, globals). When nothing outside the function writes
/// that memory between the forward and the reverse pass either, the reverse
/// pass reloads such a value instead of reading it from the tape: a load
/// from the cache instead of a store and a load through the tape.
///
/// Also finds loads from a block the function allocates itself (a table it
/// fills first and reads afterwards) that nothing writes after the load.
/// If the block outlives the call until the reverse pass (its frees move
/// there), the reverse pass can reload those values too.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H
#define ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class AAResults;
class CallBase;
class CallInst;
class DominatorTree;
class LoopInfo;
class Function;
class Instruction;
class LoadInst;
class Value;
} // namespace llvm

namespace enzyme {

class UnmodifiedMemory {
public:
  /// \p OnlyWritesErrno says which calls write no memory a program can
  /// read, except errno (math functions).
  UnmodifiedMemory(
      llvm::Function &F, llvm::AAResults &AA,
      llvm::function_ref<bool(const llvm::CallBase &)> OnlyWritesErrno);

  /// \p Load reads memory (of an argument or a global, through any phis and
  /// selects) that no instruction of the function may write or free.
  bool isUnmodified(const llvm::LoadInst &Load);

  /// The block \p Load reads, when the function allocates it once per call
  /// (outside loops), never lets its address escape, frees it only with
  /// one-argument calls (returned by frees()), and writes it nowhere the
  /// load can reach; else nullptr.
  llvm::CallBase *allocationUnmodifiedAfter(const llvm::LoadInst &Load,
                                            const llvm::DominatorTree &DT,
                                            const llvm::LoopInfo &LI);
  /// The calls that free \p Allocation (after allocationUnmodifiedAfter
  /// returned it).
  llvm::ArrayRef<llvm::CallInst *> frees(llvm::CallBase &Allocation) const;

private:
  /// What a block allocated in the function is written and freed by; none
  /// when its address escapes.
  struct LocalBlock {
    bool Escapes = false;
    llvm::SmallVector<llvm::Instruction *, 8> Writers;
    llvm::SmallVector<llvm::CallInst *, 2> Frees;
  };
  const LocalBlock &localBlock(llvm::CallBase &Allocation);
  /// An argument's or a global's memory (or memory a pointer loaded from
  /// either points to) that nothing in the function may write.
  bool isUnmodified(const llvm::Value *Object);

  llvm::AAResults &AA;
  llvm::SmallVector<llvm::Instruction *, 16> Writers;
  llvm::DenseMap<const llvm::Value *, bool> UnmodifiedObjects;
  llvm::DenseMap<const llvm::CallBase *, LocalBlock> LocalBlocks;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H
