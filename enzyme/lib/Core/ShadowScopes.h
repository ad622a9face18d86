//===- ShadowScopes.h - Shadow memory never overlaps primal -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A caller's shadow buffers are distinct from every buffer the function
/// reads or writes as its primal (docs/reverse-mode.md states the rule), so
/// in a generated function an access through a shadow argument never touches
/// what an access through a primal argument touches. Alias scopes tell LLVM
/// so: without them a reverse loop that reads L[i] and adds into dL[i] keeps
/// a runtime overlap check, and values loaded from primal memory are
/// reloaded after every adjoint update.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_SHADOWSCOPES_H
#define ENZYME_CORE_SHADOWSCOPES_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Tags each load, store and memory intrinsic of \p F whose pointers all
/// derive from shadow arguments (\p IsShadowArg) as disjoint from those whose
/// pointers all derive from the other pointer arguments, and vice versa.
/// Accesses through anything else (loaded pointers, allocations) keep
/// LLVM's own reasoning. The scopes are private to \p F; inlining copies
/// them per call site, so callers that pass one buffer in both roles to
/// different functions are not affected.
void markShadowDisjointFromPrimal(llvm::Function &F,
                                  llvm::ArrayRef<bool> IsShadowArg);

} // namespace enzyme

#endif // ENZYME_CORE_SHADOWSCOPES_H
