//===- Lanes.h - Derivatives of several directions at once ------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vector mode (`enzyme_width, N`) carries N derivatives per value, one
/// direction per lane: N tangents in forward mode, N adjoints and N shadow
/// pointers in reverse mode. Both generators give them the same types
/// (shadowType) and build them with the same helpers, so a rule is written
/// once for one lane and applied to every lane.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_LANES_H
#define ENZYME_CORE_LANES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// The type of the derivative (tangent, adjoint or shadow) of a value of
/// type \p Ty, for \p Width directions: \p Ty itself for one; for more,
/// <Width x Ty> for a float or double (vector arithmetic) and [Width x Ty]
/// for other types.
llvm::Type *shadowType(llvm::Type *Ty, unsigned Width);

/// Lane \p K of \p Lanes, a value of type shadowType(T, Width > 1).
llvm::Value *extractLane(llvm::IRBuilder<> &B, llvm::Value *Lanes, unsigned K);

/// \p Lanes (of type shadowType(T, Width > 1)) with lane \p K set to \p Lane.
llvm::Value *insertLane(llvm::IRBuilder<> &B, llvm::Value *Lanes,
                        llvm::Value *Lane, unsigned K);

/// The derivative of type shadowType(\p Ty, \p Width) whose lane k is
/// \p Rule applied to lane k of each of \p Operands (width 1: \p Rule
/// applied to \p Operands).
llvm::Value *
mapLanes(llvm::IRBuilder<> &B, unsigned Width,
         llvm::ArrayRef<llvm::Value *> Operands, llvm::Type *Ty,
         llvm::function_ref<llvm::Value *(llvm::ArrayRef<llvm::Value *>)> Rule);

/// \p Rule applied to lane k of each of \p Operands, for every lane k
/// (width 1: to \p Operands); \p Rule also gets k.
void forEachLane(
    llvm::IRBuilder<> &B, unsigned Width,
    llvm::ArrayRef<llvm::Value *> Operands,
    llvm::function_ref<void(llvm::ArrayRef<llvm::Value *>, unsigned)> Rule);

} // namespace enzyme

#endif // ENZYME_CORE_LANES_H
