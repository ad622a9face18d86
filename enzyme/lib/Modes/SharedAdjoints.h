//===- SharedAdjoints.h - Adjoints of memory other threads read -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse of a read is an addition into shadow memory. GPU threads may
/// read one location together (a parameter every thread uses), which is
/// race-free in the program, but the reverse pass then adds their adjoints
/// into one shadow location at the same time: in GPU device code those
/// additions are atomic, except into the thread's own stack; so are they in
/// the body of an OpenMP parallel region (Modes/ParallelRegions.h). (Writes
/// need no such care: a race-free program never lets two threads write, or
/// write and read, one location without a barrier between them, and the
/// reverse pass mirrors barriers.)
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_SHAREDADJOINTS_H
#define ENZYME_MODES_SHAREDADJOINTS_H

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// Whether adjoints of reads through \p PrimalPtr must be added atomically:
/// where threads share memory (GPU device code, an OpenMP region's body),
/// unless it points into the thread's stack.
bool readIsShared(const llvm::Value *PrimalPtr, bool ThreadsShareMemory);

/// A + D for adjoints of one type; non-floating parts are left alone.
llvm::Value *addAdjoints(llvm::IRBuilder<> &B, llvm::Value *A, llvm::Value *D);

/// `*Ptr += D` for a value of type \p Ty (its floating-point parts), with
/// atomic additions when \p Atomic.
void accumulateAdjoint(llvm::IRBuilder<> &B, llvm::Type *Ty, llvm::Value *Ptr,
                       llvm::Value *D, llvm::MaybeAlign Alignment, bool Atomic);

/// `*Ptr += D`, plainly where \p Plain (an i1) holds at run time and
/// atomically elsewhere.
void accumulateAdjointUnless(llvm::IRBuilder<> &B, llvm::Type *Ty,
                             llvm::Value *Ptr, llvm::Value *D,
                             llvm::MaybeAlign Alignment, llvm::Value *Plain);

} // namespace enzyme

#endif // ENZYME_MODES_SHAREDADJOINTS_H
