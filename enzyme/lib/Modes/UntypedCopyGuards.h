//===- UntypedCopyGuards.h - Copies whose contents nothing types -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reverse mode must know what a copy of memory with derivatives moves:
/// floats move their adjoints back, integers and addresses must not be
/// added up, and addresses take their shadows along. Where the type analysis
/// (Analysis/MemoryTypes.h) finds nothing that says, the engine does not
/// guess: it checks at run time that the answer does not matter. Where the
/// shadows of the copied bytes are zero at both ends when the copy runs,
/// and at its destination when the reverse pass reaches it, every reading
/// of the bytes gives the same derivative (nothing moves either way): the
/// bytes of integers, of empty members and padding that unoptimised C++
/// copies with the fields around them (Eigen's Block at -O0), of addresses
/// whose shadow is null. Otherwise the program stops with a message
/// (runtime/UntypedCopyReport.c). Targets without the run-time (GPUs) get
/// the compile-time error (describeUntypedCopy) instead.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_UNTYPEDCOPYGUARDS_H
#define ENZYME_MODES_UNTYPEDCOPYGUARDS_H

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// Emits with \p B a check that the \p Bytes bytes at \p DstShadow and, if
/// given, at \p SrcShadow are zero, which stops the program with a message
/// naming \p Primal and the copy's location \p Loc otherwise: in the
/// augmented function at the copy (both ends), in the reverse pass at its
/// reverse (the destination, which holds the adjoints to move).
void checkUntypedCopyShadows(llvm::IRBuilder<> &B, llvm::Value *DstShadow,
                             llvm::Value *SrcShadow, llvm::Value *Bytes,
                             const llvm::Function &Primal,
                             const llvm::DebugLoc &Loc);

} // namespace enzyme

#endif // ENZYME_MODES_UNTYPEDCOPYGUARDS_H
