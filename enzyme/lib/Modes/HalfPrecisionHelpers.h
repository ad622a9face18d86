//===- HalfPrecisionHelpers.h - CUDA's half types as floats -----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. CUDA's half-precision
/// types (`__half`, `__half2`, `__nv_bfloat16`, `__nv_bfloat162` and their
/// `_raw` forms) are structs of 16-bit integers, and the functions of
/// `cuda_fp16.h` and `cuda_bf16.h` that convert and compute on them are
/// inline PTX (Core/PtxStatements.h) between those integers. Optimised code
/// has inlined them: the integers are the bits of halves moved whole, which
/// the type analysis reads as floats (Modes/FloatBitWebs.h). Unoptimised
/// code calls them, and returns a half as a struct of an integer or passes
/// it in memory; there the derivative would stay in the callee. So the
/// calls of functions that take, return or belong to these types are
/// inlined into the prepared copy first, as the optimiser would.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_HALFPRECISIONHELPERS_H
#define ENZYME_MODES_HALFPRECISIONHELPERS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Inlines into \p F the calls of defined functions whose signature or name
/// involves CUDA's half-precision types, unless a registration names the
/// callee or marks it (custom derivatives and inactive functions stay
/// calls); true if something changed.
bool inlineHalfPrecisionHelpers(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_HALFPRECISIONHELPERS_H
