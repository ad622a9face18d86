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
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H
#define ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class AAResults;
class CallBase;
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

  /// \p Load reads memory (of an argument or a global) that no instruction
  /// of the function may write or free.
  bool isUnmodified(const llvm::LoadInst &Load);

private:
  llvm::AAResults &AA;
  llvm::SmallVector<llvm::Instruction *, 16> Writers;
  llvm::DenseMap<const llvm::Value *, bool> UnmodifiedObjects;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_UNMODIFIEDMEMORY_H
