//===- CopyRecords.h - Layouts of copies of values of several kinds -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A cudaMemcpy of a struct that holds device pointers beside scalars (the
/// parameters of a kernel, copied to device memory once) moves values of
/// several kinds: the reverse pass must move the adjoints of its floats back
/// and leave its pointers and integers alone, and the augmented pass must
/// copy the shadows of its pointers along. No one run-time copy of one kind
/// does both, so the engine describes the bytes to the run-time: records of
/// a stride, each with fields at offsets (runtime/CudaMemory.c, `struct
/// copy_field`). Bytes that no field covers stay of unknown kind, which the
/// run-time checks as it checks a copy that nothing types.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_COPYRECORDS_H
#define ENZYME_PLUGIN_COPYRECORDS_H

#include "Analysis/MemoryTypes.h"

#include "llvm/IR/GlobalVariable.h"

#include <optional>

namespace enzyme {

/// The layout of a copy, as runtime/CudaMemory.c reads it.
struct CopyRecord {
  /// The kinds of fields, numbered as the run-time's `enum contents`.
  enum Contents : uint64_t {
    Floats = 0,
    Doubles = 1,
    Integers = 2,
    Pointers = 3
  };
  struct Field {
    uint64_t Offset, Size;
    Contents What;
  };
  /// Each row of the copy is records of this many bytes.
  uint64_t Stride = 0;
  llvm::SmallVector<Field, 8> Fields;
};

/// The record layout of a copy of \p Length bytes (std::nullopt: unknown)
/// laid out as \p Layout shows, in records of the size of \p Element (the
/// type the program indexes its ends with, copiedElementType), of the whole
/// copy, or of \p ObjectSize (of the one object an end is,
/// copiedObjectSize); std::nullopt when none is known or no field is
/// typed. Fields that overlap others of another kind are left out: their
/// bytes are of unknown kind.
std::optional<CopyRecord> copyRecordOf(const CopyLayout &Layout,
                                       std::optional<uint64_t> Length,
                                       llvm::Type *Element,
                                       std::optional<uint64_t> ObjectSize,
                                       const llvm::DataLayout &DL);

/// \p Record's fields as a constant array in \p M, in the run-time's
/// `struct copy_field` layout.
llvm::GlobalVariable *emitCopyRecord(llvm::Module &M, const CopyRecord &Record);

} // namespace enzyme

#endif // ENZYME_PLUGIN_COPYRECORDS_H
