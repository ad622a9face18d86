//===- ForwardLowering.h - Replacing __enzyme_fwddiff -----------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_FORWARDLOWERING_H
#define ENZYME_PLUGIN_FORWARDLOWERING_H

#include "Plugin/DiffRequest.h"
#include "Plugin/RequestLowering.h"

namespace enzyme {

class ForwardModeGenerator;

/// Replaces the `__enzyme_fwddiff` call of \p Request with a call of the
/// function's tangent function: the call returns the tangent of the result
/// (or {primal, tangent} with `enzyme_primal_return`), converted to the type
/// the user declared. \p AllowDeferral leaves requests whose callees lack a
/// body in place (compile time, before LTO has every module).
LoweringResult lowerForwardRequest(const DiffRequest &Request,
                                   ForwardModeGenerator &Gen,
                                   bool AllowDeferral);

} // namespace enzyme

#endif // ENZYME_PLUGIN_FORWARDLOWERING_H
