//===- DifferentiationFailure.h - Why a function was not differentiated ---===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_DIFFERENTIATIONFAILURE_H
#define ENZYME_CORE_DIFFERENTIATIONFAILURE_H

#include "llvm/ADT/Twine.h"

#include <string>

namespace llvm {
class Instruction;
} // namespace llvm

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

  /// Records the first failure only (the one the user should read), at
  /// \p I when given; returns false so that callers can `return fail(...)`.
  bool record(const llvm::Instruction *I, const llvm::Twine &Why,
              bool MissingDefinition = false);
  /// A callee's failure, seen from its call \p Call: the call is where the
  /// user looks unless the callee named a place of its own.
  void locateAt(const llvm::Instruction &Call);
};

} // namespace enzyme

#endif // ENZYME_CORE_DIFFERENTIATIONFAILURE_H
