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
/// back their floating-point type.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_FLOATBITWEBS_H
#define ENZYME_MODES_FLOATBITWEBS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Rewrites each web of integer phis and selects that only moves the bits
/// of floating-point values (from `bitcast fp to iN`, integer loads and
/// constants, to stores and `bitcast iN to fp`) into the floating-point
/// type; true if something changed.
bool retypeFloatBitWebs(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_FLOATBITWEBS_H
