//===- ForwardLowering.cpp - Replacing __enzyme_fwddiff -------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A forward-mode request becomes a call of the tangent function,
///
///   {r, ṙ} = f.fwd(args..., tangents...)
///
/// whose result is converted to what the user declared: ṙ alone, or the
/// struct {r, ṙ} with `enzyme_primal_return`. A function returning void
/// gives no tangent (declare the request void). In vector mode ṙ is an
/// [N x T], returned as the N tangents in an aggregate (LaneResults.h).
///
//===----------------------------------------------------------------------===//

#include "Plugin/ForwardLowering.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/ContextShadows.h"
#include "Core/Diagnostics.h"
#include "Core/ScratchShadows.h"
#include "Modes/ForwardModeGenerator.h"
#include "Plugin/LaneResults.h"
#include "Plugin/LoweringSupport.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace enzyme {

/// The signature \p Request asks for, or std::nullopt after reporting why
/// it cannot be served.
static std::optional<ForwardSignature>
forwardSignature(const DiffRequest &Request) {
  ForwardSignature Sig;
  Sig.Fn = Request.Fn;
  Sig.Width = Request.Width;
  Sig.ContextShadows = Request.Context != nullptr;
  for (auto [Param, Act] : enumerate(Request.Activities)) {
    Type *Ty = Request.Fn->getArg(Param)->getType();
    std::string Where = "parameter " + std::to_string(Param + 1) + " of '" +
                        displayName(Request.Fn->getName()) + "' (" +
                        displayType(Ty) + ")";
    if (Act == Activity::Out) {
      reportError(*Request.Call,
                  "__enzyme_fwddiff: enzyme_out is a reverse-mode activity; "
                  "for " +
                      Where + " use enzyme_dup with a tangent");
      return std::nullopt;
    }
    if (!hasShadow(Act)) {
      Sig.Args.push_back(Activity::Const);
      continue;
    }
    if (!Ty->isPointerTy() && !isDifferentiableType(Ty)) {
      reportError(*Request.Call, "__enzyme_fwddiff: " + getActivityName(Act) +
                                     " for " + Where +
                                     " needs a floating-point or pointer "
                                     "parameter; pass it with enzyme_const");
      return std::nullopt;
    }
    if (!Request.Shadows[Param]) {
      reportError(*Request.Call, "__enzyme_fwddiff: " + getActivityName(Act) +
                                     " for " + Where +
                                     " needs a tangent after the value");
      return std::nullopt;
    }
    // The primal is computed anyway: dupnoneed shares dup's function.
    Sig.Args.push_back(Activity::Dup);
  }
  Type *RetTy = Request.Fn->getReturnType();
  Sig.ReturnTangent = RetTy->isPointerTy() || isDifferentiableType(RetTy);
  return Sig;
}

LoweringResult lowerForwardRequest(const DiffRequest &Request,
                                   ForwardModeGenerator &Gen,
                                   bool AllowDeferral) {
  std::optional<ForwardSignature> Sig = forwardSignature(Request);
  if (!Sig)
    return LoweringResult::Failed;
  Type *RetTy = Request.Fn->getReturnType();
  if (Request.ReturnPrimal && RetTy->isVoidTy()) {
    reportError(*Request.Call,
                "__enzyme_fwddiff: enzyme_primal_return asks for the result "
                "of '" +
                    displayName(Request.Fn->getName()) +
                    "', which returns void");
    return LoweringResult::Failed;
  }

  DifferentiationFailure Failure;
  Function *Tangent = Gen.getOrCreate(*Sig, Failure);
  if (!Tangent)
    return handleGenerationFailure(Request, Failure, AllowDeferral);

  DiffRequest Lowered = Request;
  CallBase &Call = requestCallAsCall(Lowered);
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args;
  for (auto [Param, Primal] : enumerate(Request.Primals))
    Args.push_back(passAsArgument(B, Request, Param, Primal));
  for (auto [Param, Act] : enumerate(Sig->Args))
    if (hasShadow(Act))
      Args.push_back(passAsArgument(B, Request, Param, Request.Shadows[Param]));
  // Scratch shadows live for the call (Core/ScratchShadows.h).
  bool Scratch = makesScratchShadows(*Tangent);
  if (Scratch)
    beginScratchShadows(B);
  CallInst *Result = B.CreateCall(Tangent, Args);
  Result->setDebugLoc(Call.getDebugLoc());
  if (Scratch)
    endScratchShadows(B);
  if (Request.Context)
    setCurrentContextAround(*Result, Request.Context);

  SmallVector<Value *, 2> Fields;
  if (Sig->ReturnTangent) {
    if (Request.ReturnPrimal)
      Fields.push_back(B.CreateExtractValue(Result, 0));
    Fields.push_back(B.CreateExtractValue(Result, 1));
  } else if (Request.ReturnPrimal) {
    Fields.push_back(Result); // An integer result: it has no tangent.
  }
  StringRef What = Request.ReturnPrimal ? "the result and its tangent"
                                        : "the tangent of the result";
  Value *Converted =
      Request.Width > 1
          ? convertLaneResults(B, Fields, declaredResultType(Lowered), Lowered,
                               Request.ReturnPrimal
                                   ? "the result and its tangents"
                                   : "the tangents of the result")
          : convertResults(B, Fields, declaredResultType(Lowered), Lowered,
                           What);
  replaceRequest(Lowered, Converted);
  return LoweringResult::Done;
}

} // namespace enzyme
