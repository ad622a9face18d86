//===- TangentCalls.cpp - Tangents of calls -------------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A call is one of: inactive (I/O, user-marked inactive, nothing carrying a
/// derivative in or out), memory management (TangentMemory.cpp), a math
/// function whose partials the declarative table states, whose tangent is
/// ẏ = Σ ∂f/∂xᵢ · ẋᵢ over the active arguments, or a call of a function
/// with a body, replaced by a call of the callee's tangent function.
///
//===----------------------------------------------------------------------===//

#include "Modes/TangentBuilder.h"

#include "Core/GlobalShadows.h"

#include "Analysis/KnownFunctions.h"
#include "Core/Diagnostics.h"
#include "Core/KernelLaunches.h"
#include "Core/OpenMPRuntime.h"
#include "Core/UserRegistrations.h"
#include "Modes/InlineAsmLowering.h"
#include "Modes/WarpShuffles.h"
#include "Rules/MathRules.h"

using namespace llvm;

namespace enzyme {

ForwardSignature TangentBuilder::calleeSignature(CallBase &Call) const {
  ForwardSignature Callee;
  Callee.Fn = Call.getCalledFunction();
  Callee.Width = Sig.Width;
  Callee.ContextShadows = Sig.ContextShadows;
  for (Value *Arg : Call.args()) {
    // A pointer carries a shadow; a float a tangent; an aggregate of
    // pointers (a small struct passed in registers) shadows in its fields.
    bool Carries = carriesPointers(Arg->getType()) ? Activity.passesShadow(Arg)
                                                   : Activity.isActive(Arg);
    Callee.Args.push_back(Carries ? Activity::Dup : Activity::Const);
  }
  Callee.UnshadowedFields = unshadowedFieldsOfArguments(Call, Activity);
  Type *RetTy = Call.getType();
  Callee.ReturnTangent =
      (carriesPointers(RetTy) || isDifferentiableType(RetTy)) && carries(&Call);
  return Callee;
}

bool TangentBuilder::differentiateMathCall(CallBase &Call, IRBuilder<> &B) {
  const rules::MathRule *Rule = rules::findMathRule(Call);
  SmallVector<Value *, 3> Args;
  for (Value *Arg : Call.args())
    Args.push_back(primal(Arg));
  Value *Result = primal(&Call);
  // One tangent per part of the result: f, or {re, im} of a complex f.
  Type *Ty = rules::ruleType(Call);
  SmallVector<Value *, 2> PartTangents;
  for (unsigned Part = 0; Part < Rule->resultParts(); ++Part) {
    SmallVector<Value *, 3> Terms;
    for (unsigned A = 0; A < Call.arg_size(); ++A) {
      Value *Arg = Call.getArgOperand(A);
      const std::optional<rules::Expr> &P = Rule->partial(Part, A);
      if (!P || !Activity.isActive(Arg))
        continue;
      Value *Partial = rules::emitExpr(*P, B, Ty, Args, Result);
      // The partial once, multiplied into every direction.
      Terms.push_back(perLane(B, {tangent(Arg)}, Ty, [&](ArrayRef<Value *> L) {
        return B.CreateFMul(Partial, L[0]);
      }));
    }
    PartTangents.push_back(sum(B, Terms, Ty));
  }
  if (!Rule->returnsComplex()) {
    setTangent(&Call, PartTangents[0]);
    return true;
  }
  setTangent(&Call,
             perLane(B, PartTangents, Call.getType(), [&](ArrayRef<Value *> L) {
               Value *Pair = PoisonValue::get(Call.getType());
               Pair = B.CreateInsertValue(Pair, L[0], 0);
               return B.CreateInsertValue(Pair, L[1], 1);
             }));
  return true;
}

bool TangentBuilder::checkDifferentiableCallee(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (Call.isInlineAsm())
    return fail(&Call, "cannot differentiate inline assembly whose result "
                       "or memory output carries a derivative");
  if (!Callee) // Through a pointer: a dispatcher (IndirectCalls.h).
    return true;
  if (Callee->isIntrinsic())
    return fail(&Call, "no derivative rule for the intrinsic '" +
                           Callee->getName() + "'");
  if (Callee->isDeclaration() && Callee->getName().contains("__enzyme_"))
    return fail(&Call, "cannot differentiate a request ('" +
                           displayName(Callee->getName()) +
                           "') inside differentiated code: higher-order "
                           "derivatives are not supported; request the "
                           "inner derivative outside the function being "
                           "differentiated");
  bool Custom = Gen.Registrations && Gen.Registrations->forwardOf(Callee);
  // A launch whose kernel has no tangent kernel (Core/KernelLaunches.h).
  if (!Custom) {
    if (std::optional<std::string> Message =
            launchWithoutDerivativeKernels(Call, /*Forward=*/true))
      return fail(&Call, *Message);
    if (std::optional<std::string> Message =
            launchOfKernelDefinedElsewhere(Call))
      return fail(&Call, *Message, /*MissingDefinition=*/true);
  }
  if (std::optional<std::string> Message = cudaGraphCall(Call);
      Message && !Custom)
    return fail(&Call, *Message);
  if (Callee->getName().starts_with("MPI_") && !Custom)
    return fail(&Call, "cannot differentiate the MPI call '" +
                           Callee->getName() +
                           "' in forward mode: MPI calls have reverse-mode "
                           "rules only (docs/parallel.md)");
  if (Callee->isDeclaration() && !Custom)
    return fail(&Call,
                "cannot differentiate a call to '" +
                    displayName(Callee->getName()) +
                    "': it has no definition in this module and no "
                    "derivative rule",
                /*MissingDefinition=*/true);
  if (Callee->isVarArg())
    return fail(&Call, "cannot differentiate a call to the variadic "
                       "function '" +
                           displayName(Callee->getName()) + "'");
  return true;
}

bool TangentBuilder::callTangentFunction(CallBase &Call) {
  ForwardSignature CalleeSig = calleeSignature(Call);
  Function *Callee = CalleeSig.Fn
                         ? Gen.generate(CalleeSig, *Failure)
                         : Gen.generateDispatch(CalleeSig, Call, *Failure);
  if (!Callee) {
    Failure->locateAt(Call);
    return false;
  }
  auto *OutCall = cast<CallBase>(primal(&Call));
  IRBuilder<> B(OutCall);
  SmallVector<Value *, 8> Args;
  // The dispatcher takes the pointer first; shift the ABI attributes too.
  unsigned First = CalleeSig.Fn ? 0 : 1;
  if (!CalleeSig.Fn)
    Args.push_back(OutCall->getCalledOperand());
  Args.append(OutCall->arg_begin(), OutCall->arg_end());
  for (unsigned A = 0; A < Call.arg_size(); ++A)
    if (hasShadow(CalleeSig.Args[A]))
      Args.push_back(tangent(Call.getArgOperand(A)));
  CallInst *NewCall = B.CreateCall(Callee, Args);
  NewCall->setDebugLoc(OutCall->getDebugLoc());
  // `sret` stays as it was; a struct passed by value arrives as a plain
  // pointer (the prepared caller copies it, PreparedFunction.cpp).
  for (unsigned A = 0; A < Call.arg_size(); ++A)
    for (Attribute::AttrKind Kind : {Attribute::StructRet})
      if (OutCall->paramHasAttr(A, Kind))
        NewCall->addParamAttr(A + First, OutCall->getParamAttr(A, Kind));
  Value *Primal = NewCall;
  if (CalleeSig.ReturnTangent) {
    Primal = B.CreateExtractValue(NewCall, 0);
    setTangent(&Call,
               B.CreateExtractValue(NewCall, 1, Call.getName() + ".tangent"));
  }
  // Primals follows the replacement.
  if (!OutCall->getType()->isVoidTy())
    OutCall->replaceAllUsesWith(Primal);
  Primals[&Call] = Primal;
  OutCall->eraseFromParent();
  return true;
}

bool TangentBuilder::differentiateCall(CallBase &Call, IRBuilder<> &B) {
  // Nothing of what an unsupported OpenMP construct does is seen.
  if (std::string Why = describeUnsupportedOpenMPCall(Call); !Why.empty())
    return fail(&Call, Why);
  if (isInactiveCall(Call))
    return true;
  if (isAllocationCall(Call)) {
    differentiateAllocation(Call, B);
    return true;
  }
  if (isDeallocationCall(Call)) {
    differentiateDeallocation(Call, B);
    return true;
  }
  if (auto *Mem = dyn_cast<MemIntrinsic>(&Call))
    return differentiateMemIntrinsic(*Mem, B);
  if (std::optional<VectorIntrinsic> Kind = classifyVectorIntrinsic(Call))
    return differentiateVectorIntrinsic(Call, *Kind, B);
  if (rules::findMathRule(Call)) {
    if (Activity.isActive(&Call))
      return differentiateMathCall(Call, B);
    return true;
  }
  if (classifyWarpShuffle(Call)) {
    if (!carries(&Call))
      return true;
    if (std::string Why = describeUndifferentiableShuffle(Call); !Why.empty())
      return fail(&Call, Why);
    // The tangent moves between lanes as the value does.
    setTangent(&Call, perLane(B, {tangent(Call.getArgOperand(1))},
                              Call.getType(), [&](ArrayRef<Value *> L) {
                                return emitShuffleLike(
                                    B, Call, L[0],
                                    [&](Value *V) { return primal(V); });
                              }));
    return true;
  }
  if (Value * Bits;
      shufflesFloatBits(Call, Bits) && Activity.carriesFloatBits(*Bits))
    return fail(&Call, UnseenShuffleOfFloatBits);
  // Derivatives leave a call only through its result or through memory
  // that a shadowed pointer argument reaches.
  bool ShadowedArgument = any_of(Call.args(), [&](const Use &U) {
    return Activity.passesShadow(U.get());
  });
  // Or through a global whose shadow the user declared.
  if (!ShadowedArgument && !carries(&Call) &&
      !Activity.mayTouchShadowedGlobals(Call) &&
      !Activity.mayStoreActiveArgument(Call))
    return true;
  // `asm volatile("" : : "r"(p) : "memory")` keeps p alive in benchmarks;
  // assembly computes nothing the engine could differentiate.
  if (Call.isInlineAsm() && !carries(&Call) &&
      !writesMemoryOperand(
          Call, [&](const Value *Ptr) { return Activity.isShadowed(Ptr); }))
    return true;
  if (!checkDifferentiableCallee(Call))
    return false;
  return callTangentFunction(Call);
}

} // namespace enzyme
