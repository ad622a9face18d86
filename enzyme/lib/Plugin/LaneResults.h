//===- LaneResults.h - The result shapes of vector mode ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A vector-mode request (`enzyme_width, N`) returns N tangents (or N
/// gradients), after the primal result when it is asked for. Users declare
/// the result as any aggregate with that many scalars in order: a struct of
/// N fields, `struct { double d[N]; }`, `struct { double y; double d[N]; }`
/// with `enzyme_primal_return`, or whatever x86-64 lowers those to.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_LANERESULTS_H
#define ENZYME_PLUGIN_LANERESULTS_H

#include "Plugin/DiffRequest.h"

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// Places the scalars of \p Values (aggregates are flattened, in order) in
/// the scalars of \p To, the type the user declared (floating-point values
/// convert to other floating-point types). Returns nullptr for `void`, and
/// after reporting at the request that \p To does not have exactly that
/// many scalars of compatible types. \p What names the values ("the
/// tangents of the result").
llvm::Value *convertLaneResults(llvm::IRBuilder<> &B,
                                llvm::ArrayRef<llvm::Value *> Values,
                                llvm::Type *To, const DiffRequest &Request,
                                const llvm::Twine &What);

} // namespace enzyme

#endif // ENZYME_PLUGIN_LANERESULTS_H
