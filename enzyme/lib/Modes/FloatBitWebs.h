//===- FloatBitWebs.h - Floats moved as integers ------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. InstCombine lowers a
/// one-double memcpy to `load i64` + `store i64`, and GVN then forwards a
/// stored double into it as `bitcast double to i64`; where branches join, a
/// phi of i64 carries the double to the store. Derivatives flow through
/// floating-point values only, so such integer phis and selects are given
/// back their floating-point type. Packet code does the same with vectors:
/// SSE2's `_mm_shuffle_epi32` broadcasts a double as a shuffle of
/// `<4 x i32>` between a vector load and a bitcast to `<2 x double>`; a
/// shuffle that moves whole floats becomes a shuffle of the floats. Where
/// no bitcast names the type (a web from integer loads to integer stores),
/// the memory it moves between does: the type analysis of MemoryTypes.h.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FLOATBITWEBS_H
#define ENZYME_MODES_FLOATBITWEBS_H

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace enzyme {

/// Rewrites each web of integer phis, selects and (vector) shuffles that
/// only moves the bits of floating-point values (from `bitcast fp to iN`,
/// integer loads and constants, to stores and `bitcast iN to fp`) into the
/// floating-point type; true if something changed. \p Original is the
/// function \p F copies (its callers tell what its arguments point to).
bool retypeFloatBitWebs(llvm::Function &F,
                        const llvm::Function *Original = nullptr);

/// Stores the floats themselves where a store writes a float's bits as an
/// integer of its width (`memcpy(&bits, &x, 4); *(int *)p = bits;`, which
/// unoptimised code keeps once SROA has promoted the copy): the same bytes
/// in memory, and the store now carries the float's derivative. True if
/// something changed.
bool storeFloatBitsAsFloats(llvm::Function &F);

/// Reads a float as a float where the program reads its bytes as an
/// integer and reinterprets them (`bitcast (load i64 %p) to double`, which
/// InstCombine and GVN make of a one-double memmove): a load of the float
/// right after the integer load. The derivative then goes to the memory as
/// it was at the load; the bitcast may come after a store that overwrote
/// it. True if something changed.
bool loadFloatBitsAsFloats(llvm::Function &F);

/// Moves a float inserted into (or extracted from) a vector of integers of
/// its width as a float: `insertelement <N x i64> %v, (bitcast double %x
/// to i64), i` becomes the bitcast of an insertelement into `<N x double>`
/// (optimised code builds a packet from a constant and a double's bits
/// before Eigen's `pabs` masks the sign bits), and `bitcast (extractelement
/// <N x i64> %v, i) to double` an extractelement of `<N x double>`. The
/// other passes then see the floats; true if something changed.
bool moveVectorLanesAsFloats(llvm::Function &F);
/// Folds the halves of a 64-bit value taken apart and joined again
/// (`or (shl (zext (trunc (lshr W, 32))), 32), (zext (trunc W))`, which
/// CUDA's `__hiloint2double(__double2hiint(x), __double2loint(x))` is) into
/// W, so that the double keeps its derivative; true if something changed.
bool joinSplitHalves(llvm::Function &F);

/// \p V is `or (shl (zext Hi), 32), (zext Lo)` (the low half perhaps
/// masked with 0xffffffff, as SROA inserts it), a 64-bit value joined from
/// two 32-bit halves, which are bound to \p Lo and \p Hi.
bool matchJoinedHalves(llvm::Value *V, llvm::Value *&Lo, llvm::Value *&Hi);
/// The 64-bit value W whose halves \p Lo and \p Hi are (`trunc W` and
/// `trunc (lshr W, 32)`), or nullptr.
llvm::Value *wholeOfHalves(const llvm::Value *Lo, const llvm::Value *Hi);

} // namespace enzyme

#endif // ENZYME_MODES_FLOATBITWEBS_H
