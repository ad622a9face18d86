//===- Activity.h - How an argument takes part in differentiation -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_ACTIVITY_H
#define ENZYME_CORE_ACTIVITY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace enzyme {

/// The activity of one argument or of the return value (DESIGN §2).
enum class Activity {
  /// Not differentiated.
  Const,
  /// A pointer with a shadow pointer that accumulates the derivative.
  Dup,
  /// Like Dup; the primal result is not needed by the caller.
  DupNoNeed,
  /// An active scalar passed by value; its gradient is returned.
  Out,
};

/// Per parameter of a callee, the byte offsets from the pointer argument
/// at which its caller stored pointers without a shadow (a struct that
/// views enzyme_const memory beside memory with derivatives): the
/// argument's shadow holds null there, and a pointer the callee reads at
/// one of them has no shadow. Empty when no parameter has such fields.
using UnshadowedFieldOffsets =
    llvm::SmallVector<llvm::SmallVector<uint64_t, 2>, 4>;

inline bool hasShadow(Activity A) {
  return A == Activity::Dup || A == Activity::DupNoNeed;
}

inline llvm::StringRef getActivityName(Activity A) {
  switch (A) {
  case Activity::Const:
    return "enzyme_const";
  case Activity::Dup:
    return "enzyme_dup";
  case Activity::DupNoNeed:
    return "enzyme_dupnoneed";
  case Activity::Out:
    return "enzyme_out";
  }
  return "";
}

} // namespace enzyme

#endif // ENZYME_CORE_ACTIVITY_H
