//===- RecordCopies.h - Shadows of copies of arrays of records -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A memcpy or memmove in differentiated code moves its shadow element by
/// element where its elements hold floating-point values (their adjoints
/// move back in the reverse pass) and, for a length known at run time only,
/// where they hold pointers beside floats (a std::vector of
/// `{const double *p; double w;}` moving its elements as it grows or erases
/// one: the augmented pass copies the pointers' shadows, the reverse pass
/// moves the floats' adjoints, per record, Analysis/CopyRecords.h). Each
/// such move is a function of its own, a loop over the elements in the
/// order that overlapping ranges need: a memmove to lower addresses writes
/// its first element first, so its shadow is copied in that order and its
/// adjoints are moved in the opposite one (no adjoint moved into the source
/// is moved again as the destination's).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_RECORDCOPIES_H
#define ENZYME_MODES_RECORDCOPIES_H

#include "Analysis/CopyRecords.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// `void Name(ptr dst', ptr src', i64 bytes)` (reused when \p M has it):
/// calls \p Body with the addresses of each pair of elements of
/// \p ElementSize bytes, in the order of the copy's writes (\p AsWritten)
/// or the opposite one.
llvm::Function *
getElementLoop(llvm::Module &M, llvm::StringRef Name, uint64_t ElementSize,
               bool AsWritten,
               llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *Dst,
                                       llvm::Value *Src)>
                   Body);

/// The augmented pass's copy of the shadows of the pointer fields of
/// \p Record, for each record copied.
llvm::Function *getRecordShadowCopy(llvm::Module &M, const CopyRecord &Record);

/// The reverse pass's move of the adjoints of the floating-point fields of
/// \p Record, for each record copied: into the source's (atomically with
/// \p Atomic), and the destination's cleared.
llvm::Function *getRecordAdjointMove(llvm::Module &M, const CopyRecord &Record,
                                     bool Atomic);

} // namespace enzyme

#endif // ENZYME_MODES_RECORDCOPIES_H
