//===- AccessIndex.h - A function's memory accesses by object --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What bytes an integer access or a copy moves is decided by the other
/// accesses of the same bytes: in the function, in the callees the memory
/// is passed to, in the callers that pass it. Looking for them by walking
/// every instruction costs, per question, what the functions' sizes do,
/// and a plan asks once per integer store: quadratic in unoptimised code
/// (Thrust's -O0 kernels spent minutes there). The index walks each
/// function once and files its loads, stores, memory annotations and the
/// pointer arguments of its calls under the object their address is a
/// constant offset from, so a search costs what the object's accesses
/// number.
///
/// An index is valid while the functions it has filed are not edited:
/// hold one across analyses only (a plan, before any IR is generated).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_ACCESSINDEX_H
#define ENZYME_ANALYSIS_ACCESSINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace llvm {
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

class AccessIndex {
public:
  /// One use of an address that is a constant offset from an object.
  struct Access {
    enum Kind {
      /// A load or store of the address.
      LoadOrStore,
      /// A memory annotation (`__enzyme_double(p, bytes)`) of the address.
      Annotation,
      /// The address passed to a call of a defined function, as argument
      /// ArgNo.
      CallArgument,
    } What;
    /// The address's offset from the object, in bytes.
    int64_t Offset;
    llvm::Instruction *I;
    /// The instruction's position in its function: searches visit
    /// accesses in program order, whatever object they are filed under.
    unsigned Position;
    unsigned ArgNo;
    /// For an annotation, the type it says the memory holds.
    llvm::Type *Annotated;
  };

  /// The accesses in \p F of addresses at constant offsets from \p Base.
  llvm::ArrayRef<Access> accessesOf(llvm::Function &F, const llvm::Value *Base);

private:
  using ByObject =
      llvm::DenseMap<const llvm::Value *, llvm::SmallVector<Access, 2>>;
  const ByObject &indexOf(llvm::Function &F);

  llvm::DenseMap<const llvm::Function *, ByObject> Functions;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_ACCESSINDEX_H
