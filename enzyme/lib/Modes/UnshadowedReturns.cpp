//===- UnshadowedReturns.cpp - Callees that return no shadow
//---------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/UnshadowedReturns.h"

#include "Modes/PreparedFunction.h"

#include "Core/UserRegistrations.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

/// Questions asked while answering another: callees of callees. Deeper
/// ones are answered "may have a shadow".
static constexpr size_t MaxNesting = 4;

bool UnshadowedReturns::returnsOnlyUnshadowed(const CallBase &Call,
                                              const ActivityAnalysis &Caller) {
  Function *Callee = Call.getCalledFunction();
  // A custom derivative's augmented half may return any shadow.
  if (!Callee || Callee->isDeclaration() || Callee->isIntrinsic() ||
      isNamedByRegistration(*Callee, "__enzyme_register_") ||
      !Callee->getReturnType()->isFirstClassType())
    return false;
  // What the callee's signature would be.
  SmallVector<Activity, 4> Activities = reverseArgumentActivities(Call, Caller);
  std::vector<Activity> Args(Activities.begin(), Activities.end());
  UnshadowedFieldOffsets Fields = unshadowedFieldsOfArguments(Call, Caller);
  std::vector<std::vector<uint64_t>> FieldKey;
  for (const auto &F : Fields)
    FieldKey.emplace_back(F.begin(), F.end());
  Key K{Callee, Args, FieldKey, Caller.contextShadows()};
  if (auto It = Answers.find(K); It != Answers.end())
    return It->second;
  if (Asking.size() >= MaxNesting || !Asking.insert(K).second)
    return false;

  bool Unshadowed = false;
  DifferentiationFailure Ignored;
  if (checkPreparable(*Callee, Ignored)) {
    Function *Prepared = Prepare(*Callee);
    {
      // As the callee would be analysed if the caller asked for the shadow.
      ActivityAnalysis Analysis(*Prepared, Args, /*ReturnShadow=*/true,
                                Caller.contextShadows(), Fields,
                                /*ReturnDerivative=*/true, this);
      Unshadowed = true;
      for (BasicBlock &BB : *Prepared)
        if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
          const Value *V = Ret->getReturnValue();
          Unshadowed &= V && !Analysis.isShadowed(V) && !Analysis.isActive(V);
        }
    }
    discardFunction(Prepared, FAM);
  }
  Asking.erase(K);
  Answers[K] = Unshadowed;
  return Unshadowed;
}

} // namespace enzyme
