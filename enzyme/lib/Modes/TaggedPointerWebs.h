//===- TaggedPointerWebs.h - Pointers moved as integers through phis -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. A class that keeps a
/// pointer in an integer, with flags in the bits its alignment leaves free
/// (Kokkos' allocation tracker, LLVM's PointerIntPair), copies it as an
/// integer: where branches join, a phi or select of i64 carries the bits of
/// two loads (unoptimised code, a View copied on two paths) before
/// `inttoptr` turns them back into the address. The engine follows
/// pointers, and integer loads of them with flags (taggedBitsLoad), not
/// integer phis; so a web of integer phis and selects whose leaves are such
/// bits (tagged loads, ptrtoint, constants) and that is used as an address
/// becomes a web of pointer phis and selects, read back with ptrtoint.
/// The flags set on the result are address arithmetic
/// (ActivityAnalysis.h's addressArithmeticBase), which keeps the shadow.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_TAGGEDPOINTERWEBS_H
#define ENZYME_MODES_TAGGEDPOINTERWEBS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Rewrites each web of pointer-sized integer phis and selects that moves
/// tagged pointer bits and reaches an `inttoptr` into pointer phis and
/// selects; true if something changed.
bool retypeTaggedPointerWebs(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_TAGGEDPOINTERWEBS_H
