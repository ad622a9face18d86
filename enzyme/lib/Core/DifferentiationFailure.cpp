//===- DifferentiationFailure.cpp - Why a function was not differentiated -===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/DifferentiationFailure.h"
#include "Core/Diagnostics.h"

#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace enzyme {

bool DifferentiationFailure::record(const Instruction *I, const Twine &Why,
                                    bool Missing) {
  if (!Message.empty())
    return false;
  HasOffending = I != nullptr;
  if (I)
    OffendingLocation = describeLocation(I->getDebugLoc());
  Message = Why.str();
  MissingDefinition = Missing;
  return false;
}

void DifferentiationFailure::locateAt(const Instruction &Call) {
  if (HasOffending)
    return;
  HasOffending = true;
  OffendingLocation = describeLocation(Call.getDebugLoc());
}

} // namespace enzyme
