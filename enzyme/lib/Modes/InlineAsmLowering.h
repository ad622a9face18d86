//===- InlineAsmLowering.h - Assembly the engine can read ------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Libraries write some floating-point code as inline assembly, which the
/// engine cannot differentiate as such:
///
/// - optimisation barriers, an empty statement whose operands are tied in
///   and out (Eigen's `EIGEN_OPTIMIZATION_BARRIER(X)`,
///   `__asm__("" : "+g,x"(X))`): each output is the input tied to it;
/// - single x86 instructions that clang would otherwise fuse or reorder
///   (Eigen's AVX `pmadd`, `vfmadd231pd`, and its `pmin`/`pmax`, `vminpd`,
///   `minpd`...): a fused multiply-add, or a compare and select with the
///   instruction's operand order and NaN behaviour;
/// - in CUDA device code, straight-line PTX of moves, warp shuffles,
///   arithmetic and loads with a cache operator (CUB's warp shuffles of
///   32-bit words, the steps of its warp reductions and scans of a sum, its
///   `ld.global.nc.v2.u64` loads of tiles): the IR it computes
///   (Core/PtxStatements.h).
///
/// The prepared copy of a function gets the generic IR they stand for,
/// which both generators differentiate with their ordinary rules; any
/// other assembly stays a call, an error where derivatives reach it.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_INLINEASMLOWERING_H
#define ENZYME_MODES_INLINEASMLOWERING_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace enzyme {

/// Replaces each assembly statement of \p F that is one of the above by the
/// generic IR it stands for; true if something changed.
bool lowerKnownInlineAsm(llvm::Function &F);

/// \p Call is inline assembly with an output in memory (`"=m"(x)`, or
/// `"+g"` where the compiler chose memory) at an address \p Want accepts:
/// it writes that memory, which a derivative must follow.
bool writesMemoryOperand(const llvm::CallBase &Call,
                         llvm::function_ref<bool(const llvm::Value *)> Want);

} // namespace enzyme

#endif // ENZYME_MODES_INLINEASMLOWERING_H
