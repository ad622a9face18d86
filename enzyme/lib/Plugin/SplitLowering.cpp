//===- SplitLowering.cpp - __enzyme_augmentfwd and __enzyme_reverse -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Split reverse mode hands the user the two halves that every gradient is
/// made of (ReverseModeGenerator.h): `__enzyme_augmentfwd` calls the
/// augmented forward function with a fresh tape and returns the tape (and
/// the primal result when asked); `__enzyme_reverse` calls the reverse
/// function with it and frees it. Both halves of one function must be asked
/// for with the same activities, since they share the tape's layout.
///
/// The tape is the engine's growable stack with its header on the heap, so
/// it outlives the call that made it; the caller holds it as a `void *`.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LoweringSupport.h"
#include "Plugin/RequestLowering.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/Diagnostics.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

ReverseSignature splitSignature(const DiffRequest &Request) {
  ReverseSignature Sig;
  Sig.Fn = Request.Fn;
  Sig.Args.assign(Request.Activities.begin(), Request.Activities.end());
  Sig.ReturnActive = Request.Fn->getReturnType()->isFloatingPointTy();
  // The caller may change the inputs between the two halves.
  Sig.InputsKeptUntilReverse = false;
  return Sig;
}

/// The checks that hold whatever the function's body is.
static bool checkSplitRequest(const DiffRequest &Request) {
  Type *RetTy = Request.Fn->getReturnType();
  StringRef Entry = requestEntryName(Request.Mode);
  if (isDifferentiableType(RetTy) && !RetTy->isFloatingPointTy()) {
    reportError(*Request.Call,
                Entry + ": split mode of '" +
                    displayName(Request.Fn->getName()) +
                    "', which returns a '" + displayType(RetTy) +
                    "', is not supported; return the values through a "
                    "pointer argument");
    return false;
  }
  if (Request.AllocatedTapeBytes) {
    reportError(*Request.Call,
                Entry + ": inline tapes ('enzyme_allocated') are not "
                        "supported yet; leave the marker out to get the tape "
                        "as a pointer");
    return false;
  }
  return true;
}

static LoweringResult lowerAugmentedForward(DiffRequest &Request,
                                            const ReversePair &Pair,
                                            ReverseModeGenerator &Gen) {
  CallBase &Call = requestCallAsCall(Request);
  IRBuilder<> B(&Call);
  Type *Declared = declaredResultType(Request);
  if (Declared->isVoidTy()) {
    reportError(Call, "__enzyme_augmentfwd returns the tape that "
                      "__enzyme_reverse needs; declare it to return void* "
                      "(or a struct of the tape and the primal result)");
    replaceRequest(Request, nullptr);
    return LoweringResult::Failed;
  }
  Value *Tape = Gen.tape().createHeapTape(B);
  SmallVector<Value *, 8> Args(Request.Primals.begin(), Request.Primals.end());
  for (Value *Shadow : Request.Shadows)
    if (Shadow)
      Args.push_back(Shadow);
  Args.push_back(Tape);
  CallInst *Primal = B.CreateCall(Pair.Augmented, Args);
  Primal->setDebugLoc(Call.getDebugLoc());

  // {tape}, or {tape, primal result} when asked for by the marker or by a
  // declared struct with room for it.
  SmallVector<Value *, 2> Results = {Tape};
  bool WantsPrimal = Request.ReturnPrimal;
  if (auto *ST = dyn_cast<StructType>(Declared))
    WantsPrimal |= ST->getNumElements() >= 2;
  if (WantsPrimal && !Primal->getType()->isVoidTy())
    Results.push_back(Primal);
  Value *Result = convertResults(B, Results, Declared, Request,
                                 "the results (the tape "
                                 "and the primal result)");
  replaceRequest(Request, Result);
  return Result ? LoweringResult::Done : LoweringResult::Failed;
}

static LoweringResult lowerReverse(DiffRequest &Request,
                                   const ReverseSignature &Sig,
                                   const ReversePair &Pair,
                                   ReverseModeGenerator &Gen) {
  CallBase &Call = requestCallAsCall(Request);
  IRBuilder<> B(&Call);
  Value *Tape = Request.Tape;
  if (Tape->getType()->isIntegerTy())
    Tape = B.CreateIntToPtr(Tape, B.getPtrTy());
  if (!Tape->getType()->isPointerTy()) {
    reportError(Call, "__enzyme_reverse: the tape must be the pointer that "
                      "__enzyme_augmentfwd returned, not a '" +
                          displayType(Tape->getType()) + "'");
    replaceRequest(Request, nullptr);
    return LoweringResult::Failed;
  }
  Tape = B.CreatePointerBitCastOrAddrSpaceCast(Tape, B.getPtrTy());
  SmallVector<Value *, 8> Args(Request.Primals.begin(), Request.Primals.end());
  for (Value *Shadow : Request.Shadows)
    if (Shadow)
      Args.push_back(Shadow);
  if (Sig.ReturnActive)
    Args.push_back(Request.ReturnAdjoint);
  Args.push_back(Tape);
  CallInst *Grads = B.CreateCall(Pair.Reverse, Args);
  Grads->setDebugLoc(Call.getDebugLoc());
  Gen.tape().destroyHeapTape(B, Tape);
  Value *GradsValue = Grads->getType()->isVoidTy() ? nullptr : Grads;
  Value *Result =
      convertResults(B, structFields(B, GradsValue),
                     declaredResultType(Request), Request, "the gradients");
  replaceRequest(Request, Result);
  return LoweringResult::Done;
}

LoweringResult lowerSplitRequest(const DiffRequest &Original,
                                 ReverseModeGenerator &Gen,
                                 bool AllowDeferral) {
  DiffRequest Request = Original;
  if (Request.Mode == RequestMode::AugmentSize) {
    reportError(*Request.Call, "__enzyme_augmentsize: inline tapes are not "
                               "supported yet");
    replaceRequest(Request, nullptr);
    return LoweringResult::Failed;
  }
  if (!checkSplitRequest(Request)) {
    replaceRequest(Request, nullptr);
    return LoweringResult::Failed;
  }
  ReverseSignature Sig = splitSignature(Request);
  DifferentiationFailure Failure;
  const ReversePair *Pair = Gen.getOrCreate(Sig, Failure);
  if (!Pair)
    return handleGenerationFailure(Request, Failure, AllowDeferral);
  if (Request.Mode == RequestMode::AugmentedForward)
    return lowerAugmentedForward(Request, *Pair, Gen);
  return lowerReverse(Request, Sig, *Pair, Gen);
}

} // namespace enzyme
