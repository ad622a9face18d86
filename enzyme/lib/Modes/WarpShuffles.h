//===- WarpShuffles.h - Derivatives of warp shuffles ------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A warp shuffle moves a value from one lane to another, so its tangent
/// is the same shuffle of the tangent, and its adjoint goes back the other
/// way: `down` by d returns adjoints `up` by d, `up` returns them `down`,
/// `xor` returns them by the same `xor`, and `idx` (any source lane) sums
/// each lane's adjoint into its source by visiting the 32 lanes. A lane
/// whose source is out of range keeps its own value, and its own adjoint.
/// A shuffle over part of a warp, or clamped at a lane known only at run
/// time (CUB's reductions of partial tiles), visits the lanes too, each
/// finding its source as PTX's `shfl.sync` does.
///
/// CUDA shuffles a double as two 32-bit shuffles of its halves; the
/// prepared function gets one call of an engine helper for each such pair
/// (a shuffle of the double), which the rules read and which is inlined
/// after AD; a 32-bit shuffle of a float's bits becomes the float's shuffle.
/// Other 32-bit shuffles of a float's bits are errors.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_WARPSHUFFLES_H
#define ENZYME_MODES_WARPSHUFFLES_H

#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <string>

namespace enzyme {

enum class ShuffleMode { Down, Up, Xor, Index };

/// A floating-point shuffle: CUDA's of a float, or the helper for a double.
/// Its operands are (mask, value, lane or offset, clamp).
std::optional<ShuffleMode> classifyWarpShuffle(const llvm::CallBase &Call);

/// The error for a 32-bit shuffle of a float's bits the rules do not see.
inline constexpr const char *UnseenShuffleOfFloatBits =
    "cannot differentiate a warp shuffle of a floating-point value's bits as "
    "integers; shuffle the float or double itself (__shfl_*_sync of it), or "
    "build with -O1 or higher where the words of a value are shuffled one by "
    "one through memory (CUB's generic shuffles): optimised code shuffles "
    "the value's halves, which the engine reads as its shuffle";

/// Why the shuffle \p Call cannot be differentiated, or empty.
std::string describeUndifferentiableShuffle(const llvm::CallBase &Call);

/// \p Call is a 32-bit integer shuffle of bits that come from \p Bits: a
/// floating-point value, or a load (of a float's word, where it carries
/// float bits: ActivityAnalysis::carriesFloatBits), which the rules do not
/// see as a float's shuffle.
bool shufflesFloatBits(const llvm::CallBase &Call, llvm::Value *&Bits);

/// Some 32-bit integer shuffle of \p F moves bits loaded from memory (as
/// CUB's generic ShuffleDown/ShuffleUp move a value one word at a time, in
/// a loop over its words, through a pointer to integers).
bool shufflesWordsOfMemory(const llvm::Function &F);

/// Replaces the pairs of 32-bit shuffles that move a double in \p F by
/// calls of the helper, and calls of the CUDA headers' float and double
/// shuffles (at -O0) by the shuffles they wrap, after erasing the shuffles
/// whose results nothing uses (\p F is the engine's copy of a function);
/// true if something changed.
bool raiseDoubleShuffles(llvm::Function &F);

/// A shuffle of \p V (float, double or i32) in \p Mode, with the operands
/// of CUDA's shuffles.
llvm::Value *emitWarpShuffle(llvm::IRBuilder<> &B, ShuffleMode Mode,
                             llvm::Value *Mask, llvm::Value *V,
                             llvm::Value *LaneOrOffset, llvm::Value *Clamp);

/// Whether the lane running a shuffle in \p Mode with operands
/// \p LaneOrOffset and \p Clamp reads another lane (its source is in
/// range): the predicate PTX's `shfl.sync` can write beside its result.
llvm::Value *emitShuffleSourceInRange(llvm::IRBuilder<> &B, ShuffleMode Mode,
                                      llvm::Value *LaneOrOffset,
                                      llvm::Value *Clamp);

/// The same shuffle as \p Call, of \p V (a tangent), with \p Operand giving
/// the primal operands.
llvm::Value *
emitShuffleLike(llvm::IRBuilder<> &B, const llvm::CallBase &Call,
                llvm::Value *V,
                llvm::function_ref<llvm::Value *(llvm::Value *)> Operand);

/// The adjoint of the shuffled value given \p D, the result's, in each
/// lane (\p Call's mode at full warp width).
llvm::Value *
emitShuffleAdjoint(llvm::IRBuilder<> &B, const llvm::CallBase &Call,
                   llvm::Value *D,
                   llvm::function_ref<llvm::Value *(llvm::Value *)> Operand);

} // namespace enzyme

#endif // ENZYME_MODES_WARPSHUFFLES_H
