//===- HalfPrecisionHelpers.cpp - CUDA's half types as floats -------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/HalfPrecisionHelpers.h"

#include "Core/UserRegistrations.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

/// The struct names clang gives CUDA's half-precision types.
static bool isHalfPrecisionStructName(StringRef Name) {
  if (!Name.consume_front("struct.") && !Name.consume_front("class."))
    return false;
  Name = Name.take_until([](char C) { return C == '.'; });
  return Name == "__half" || Name == "__half2" || Name == "__half_raw" ||
         Name == "__half2_raw" || Name == "__nv_bfloat16" ||
         Name == "__nv_bfloat162" || Name == "__nv_bfloat16_raw" ||
         Name == "__nv_bfloat162_raw";
}

static bool involvesHalfPrecision(Type *Ty) {
  auto *ST = dyn_cast_or_null<StructType>(Ty);
  if (!ST)
    return false;
  if (ST->hasName() && isHalfPrecisionStructName(ST->getName()))
    return true;
  return any_of(ST->elements(), involvesHalfPrecision);
}

/// \p Callee takes or returns one of the types (by value, or in memory as
/// byval and sret say), or its mangled name names one (their members and
/// operators, which take them through pointers), or it is one of the
/// headers' conversions of a type's raw bits (`__internal_bfloat162float`
/// takes an unsigned short).
static bool isHalfPrecisionHelper(const Function &Callee) {
  if (involvesHalfPrecision(Callee.getReturnType()))
    return true;
  for (const Argument &A : Callee.args())
    if (involvesHalfPrecision(A.getType()) ||
        involvesHalfPrecision(A.getParamByValType()) ||
        involvesHalfPrecision(A.getParamStructRetType()))
      return true;
  StringRef Name = Callee.getName();
  return Name.starts_with("_Z") &&
         (Name.contains("6__half") || Name.contains("7__half2") ||
          Name.contains("bfloat16") || // also 13__nv_bfloat16, 14__nv_bfloat162
          Name.contains("__internal_half2float") ||
          Name.contains("__internal_float2half"));
}

/// Unoptimised code marks every function `noinline`; registrations are
/// what keep a callee a call. Every call of the function is asked: the
/// cheap tests come first, the walk of the callee's users for a
/// registration last.
static bool mayInline(const Function &Caller, const Function *Callee) {
  return Callee && Callee != &Caller && !Callee->isDeclaration() &&
         !Callee->isInterposable() &&
         !Callee->hasFnAttribute("enzyme_inactive") &&
         isHalfPrecisionHelper(*Callee) &&
         !isNamedByRegistration(*Callee, "__enzyme_");
}

bool inlineHalfPrecisionHelpers(Function &F) {
  // The helpers call each other (an operator calls a conversion); a few
  // rounds reach the bottom, and a bound keeps recursion finite.
  bool Changed = false;
  for (unsigned Round = 0; Round < 8; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && !Call->isInlineAsm() &&
          mayInline(F, Call->getCalledFunction()))
        Calls.push_back(Call);
    bool Inlined = false;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo Info;
      Inlined |= InlineFunction(*Call, Info).isSuccess();
    }
    if (!Inlined)
      break;
    Changed = true;
  }
  return Changed;
}

} // namespace enzyme
