//===- ShadowAddresses.h - Shadows of addresses computed as integers -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Code that aligns a buffer by hand computes the address as an integer:
/// `(uintptr_t(p) + 15) & -16` over an over-allocated block (Eigen's
/// aligned stack buffers). The shadow of such an address is the same
/// arithmetic on the address of the shadow block: it stays inside the
/// shadow, which has the primal block's size, and it is aligned as the code
/// requires, which accesses that the optimiser marked aligned (vmovapd)
/// rely on. ActivityAnalysis's addressArithmeticBase says which integers
/// are such addresses.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_SHADOWADDRESSES_H
#define ENZYME_MODES_SHADOWADDRESSES_H

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// The integer arithmetic \p Int (in the function being built; a ptrtoint
/// of one pointer, moved by additions, subtractions and power-of-two
/// rounding, as addressArithmeticBase accepts) redone by \p B on
/// \p Shadow in place of that pointer, and turned into a pointer of type
/// \p PtrTy.
llvm::Value *shadowOfAddressArithmetic(llvm::IRBuilder<> &B, llvm::Value *Int,
                                       llvm::Value *Shadow, llvm::Type *PtrTy,
                                       const llvm::Twine &Name);

/// The tag operations on \p Int (in the function being built; a load's
/// bits with flags set or cleared, as taggedBitsLoad accepts) redone by
/// \p B on \p ShadowBits, the shadow memory's bits, in place of the load:
/// the shadow pointer carries the primal's flags.
llvm::Value *retagShadowBits(llvm::IRBuilder<> &B, llvm::Value *Int,
                             llvm::Value *ShadowBits);

} // namespace enzyme

#endif // ENZYME_MODES_SHADOWADDRESSES_H
