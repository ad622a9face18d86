//===- MemoryTypes.h - What kind of values memory holds ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A small type analysis for memory that is copied without a type: memcpy,
/// and integer loads/stores that optimised code uses to move a double
/// (`load i64` / `store i64`). Evidence comes from TBAA tags and from how
/// the same memory is loaded and stored elsewhere.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_MEMORYTYPES_H
#define ENZYME_ANALYSIS_MEMORYTYPES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>

namespace llvm {
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

/// The floating-point type of the values that memory at \p Dst and \p Src
/// holds, when something says so; nullptr otherwise. \p Access, when given,
/// is the copying instruction, whose TBAA tag is checked first.
llvm::Type *inferFloatElementType(llvm::Value *Dst, llvm::Value *Src,
                                  const llvm::Instruction *Access = nullptr);

/// What the memory a copy moves holds, offset by offset, as the function's
/// loads and stores at constant offsets of the same objects show it.
struct CopyLayout {
  /// (offset from the start of the copy, type) of every access seen.
  llvm::SmallVector<std::pair<int64_t, llvm::Type *>, 8> Slots;
  bool HasPointers = false;
  bool HasFloats = false;

  /// The slots in [0, Length) whose type satisfies \p Want, one per offset.
  llvm::SmallVector<std::pair<int64_t, llvm::Type *>, 8>
  slotsWithin(uint64_t Length,
              llvm::function_ref<bool(llvm::Type *)> Want) const;
};

/// The layout of the bytes copied from \p Src to \p Dst in \p F.
CopyLayout analyzeCopyLayout(llvm::Value *Dst, llvm::Value *Src,
                             llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_MEMORYTYPES_H
