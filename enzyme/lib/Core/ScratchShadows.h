//===- ScratchShadows.h - Zeroed shadows of memory without them -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A pointer to memory without derivatives (an enzyme_const argument, a
/// global, a buffer that inactive code returned) has no shadow. Where such a
/// pointer goes where code that the engine cannot follow may read
/// derivatives through it (a field of an object that has a shadow, a
/// returned pointer, one side of a choice), it gets a scratch shadow
/// instead of none: zeroed memory at the same offsets, made by the
/// run-time (runtime/ScratchShadows.c) and zeroed again when the outermost
/// sweep that uses it ends. That is what enzyme_dup with a zeroed shadow would
/// give, so the derivatives of everything else are exact, and a read through
/// the pointer never goes through a null shadow. Targets without the run-time
/// (GPUs) cannot have them; there the generators keep their compile-time
/// errors.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_SCRATCHSHADOWS_H
#define ENZYME_CORE_SCRATCHSHADOWS_H

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// The scratch shadow of \p V (in the function being built), for \p Width
/// directions, of type shadowType(V's type, Width): pointers (also in
/// vectors and aggregates) get scratch shadows, other fields zero.
llvm::Value *createScratchShadow(llvm::IRBuilder<> &B, llvm::Value *V,
                                 unsigned Width);

/// The scratch shadow of \p V, one side of `select Cond, ...` (the true
/// side when \p OnTrue), made only when that side is taken: null otherwise.
llvm::Value *createScratchShadowOfSide(llvm::IRBuilder<> &B, llvm::Value *Cond,
                                       llvm::Value *V, bool OnTrue,
                                       unsigned Width);

/// \p Shadows (of type shadowType(Loaded's type, \p Width)), loaded from
/// shadow memory for \p Loaded, a pointer or an aggregate of them: a
/// pointer whose shadow is null while it is not has none, and gets a
/// scratch one.
llvm::Value *scratchShadowsIfNull(llvm::IRBuilder<> &B, llvm::Value *Shadows,
                                  llvm::Value *Loaded, unsigned Width);

/// After a copy of memory without derivatives into \p Dst (the primal
/// destination, in the function being built), which has the shadows
/// \p DstShadows (one per direction): the pointers copied, at
/// \p PointerOffsets from Dst, get scratch shadows in the destination's
/// shadow, so that code reading through them finds one.
void storeScratchShadowsOfCopiedPointers(
    llvm::IRBuilder<> &B, llvm::Value *Dst,
    llvm::ArrayRef<llvm::Value *> DstShadows,
    llvm::ArrayRef<std::pair<int64_t, llvm::Type *>> PointerOffsets);

/// \p F (a generated function), or a generated function it calls, makes
/// scratch shadows: the calls of it that a request makes must be bracketed
/// with beginScratchShadows and endScratchShadows.
bool makesScratchShadows(const llvm::Function &F);

/// Around a sweep: the scratch shadows used from the first begin to the
/// matching end of the outermost bracket are zeroed then.
void beginScratchShadows(llvm::IRBuilder<> &B);
void endScratchShadows(llvm::IRBuilder<> &B);

} // namespace enzyme

#endif // ENZYME_CORE_SCRATCHSHADOWS_H
