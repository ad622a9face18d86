//===- DifferentiationFailure.h - Why a function was not differentiated ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_DIFFERENTIATIONFAILURE_H
#define ENZYME_CORE_DIFFERENTIATIONFAILURE_H

#include <string>

namespace enzyme {

/// Why a function could not be differentiated, filled by the generators and
/// reported (or deferred to link time) by the request's lowering.
struct DifferentiationFailure {
  /// Where the offending operation is ("file.c:7:12"), or empty. Kept as
  /// text: the instruction lives in a temporary copy of the function.
  std::string OffendingLocation;
  bool HasOffending = false;
  std::string Message;
  /// A callee has no body in this module; it may have one at link time.
  bool MissingDefinition = false;
};

} // namespace enzyme

#endif // ENZYME_CORE_DIFFERENTIATIONFAILURE_H
