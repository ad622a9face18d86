//===- RequestLowering.h - Replacing a request by its derivative -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_REQUESTLOWERING_H
#define ENZYME_PLUGIN_REQUESTLOWERING_H

#include "Plugin/DiffRequest.h"

namespace enzyme {

class ReverseModeGenerator;

enum class LoweringResult {
  /// The call now computes the derivative.
  Done,
  /// A callee has no body yet; the request waits for the link-time run.
  Deferred,
  /// An error was reported.
  Failed,
};

/// Replaces the `__enzyme_autodiff` call of \p Request with a call to a new
/// gradient function. \p AllowDeferral leaves requests whose callees lack a
/// body in place (compile time, before LTO has every module).
LoweringResult lowerReverseRequest(const DiffRequest &Request,
                                   ReverseModeGenerator &Gen,
                                   bool AllowDeferral);

/// Replaces an `__enzyme_augmentfwd` or `__enzyme_reverse` call with a call
/// to the augmented forward or the reverse function of the pair that
/// `__enzyme_autodiff` would use (split reverse mode).
LoweringResult lowerSplitRequest(const DiffRequest &Request,
                                 ReverseModeGenerator &Gen, bool AllowDeferral);

struct ReverseSignature;
/// The signature both halves of a split-mode request ask for.
ReverseSignature splitSignature(const DiffRequest &Request);

} // namespace enzyme

#endif // ENZYME_PLUGIN_REQUESTLOWERING_H
