//===- CopyRecords.h - Layouts of copies of values of several kinds -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A copy of structs that hold device pointers or addresses beside
/// floating-point values and integers (the parameters of a kernel copied to
/// device memory; a std::vector of such structs moving its elements) moves
/// values of several kinds: the reverse pass must move the adjoints of its
/// floats back and leave its pointers and integers alone, and the augmented
/// pass must copy the shadows of its pointers along. A copy record says
/// which: the copy is records of a stride, each with fields of one kind at
/// offsets. The CUDA run-time reads it for cudaMemcpy (runtime/CudaCopies.c,
/// `struct copy_field`; bytes that no field covers are of unknown kind,
/// which it checks as it checks a copy that nothing types); host code loops
/// over the records of a memcpy whose length is known at run time only
/// (Modes/RecordCopies.h).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_COPYRECORDS_H
#define ENZYME_ANALYSIS_COPYRECORDS_H

#include "Analysis/MemoryTypes.h"

#include "llvm/IR/LLVMContext.h"

#include <optional>

namespace enzyme {

/// The layout of a copy, as runtime/CudaCopies.c reads it.
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
  /// The type of the values of a field of \p What (Integers: none).
  static llvm::Type *typeOf(Contents What, llvm::LLVMContext &Ctx);

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

/// Every pointer and floating-point value that \p Layout places is a field
/// of \p Record, at its offset within its record.
bool recordHoldsMovedValues(const CopyRecord &Record, const CopyLayout &Layout,
                            const llvm::DataLayout &DL);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_COPYRECORDS_H
