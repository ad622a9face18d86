//===- TangentLanes.cpp - Tangents of several directions at once ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vector mode (`enzyme_width, N`) widens every tangent to N lanes, one
/// direction per lane (shadowType): a <N x T> for a float or double, so
/// that the lanes live in vector registers, and an [N x T] for the rest (the
/// shadow of a pointer is an [N x ptr], one shadow per direction). The
/// rules keep their scalar code and apply it lane by lane; whatever does not
/// depend on the direction (the primal values, the partials of a math
/// function) is computed once, before the lanes, so the lanes form N
/// isomorphic chains that the SLP vectoriser turns into vector arithmetic.
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

#include "Core/Lanes.h"

using namespace llvm;

namespace enzyme {

Value *TangentBuilder::perLane(IRBuilder<> &B, ArrayRef<Value *> Ts, Type *Ty,
                               function_ref<Value *(ArrayRef<Value *>)> Rule) {
  return mapLanes(B, Sig.Width, Ts, Ty, Rule);
}

void TangentBuilder::forEachLane(IRBuilder<> &B, ArrayRef<Value *> Ts,
                                 function_ref<void(ArrayRef<Value *>)> Rule) {
  enzyme::forEachLane(B, Sig.Width, Ts,
                      [&](ArrayRef<Value *> Lane, unsigned) { Rule(Lane); });
}

} // namespace enzyme
