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

#include "Plugin/LaneResults.h"
#include "Plugin/LoweringSupport.h"
#include "Plugin/RequestLowering.h"

#include "Analysis/ActivityAnalysis.h"
#include "Core/ContextShadows.h"
#include "Core/Diagnostics.h"
#include "Core/ScratchShadows.h"
#include "Core/ShadowMemory.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

ReverseSignature splitSignature(const DiffRequest &Request) {
  ReverseSignature Sig;
  Sig.Fn = Request.Fn;
  Sig.Args.assign(Request.Activities.begin(), Request.Activities.end());
  Sig.ReturnActive = Request.Fn->getReturnType()->isFloatingPointTy() &&
                     Request.ReturnActivity != ResultActivity::Const;
  // The caller may change the inputs between the two halves, except the
  // memory of the pointers it marked `enzyme_nocache`.
  Sig.InputsKeptUntilReverse = false;
  if (is_contained(Request.NoCache, true))
    Sig.KeptArgs.assign(Request.NoCache.begin(), Request.NoCache.end());
  Sig.FixedTape = Request.AllocatedTapeBytes.has_value() ||
                  Request.Mode == RequestMode::AugmentSize;
  Sig.Width = Request.Width;
  Sig.ContextShadows = Request.Context != nullptr;
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
  return true;
}

/// The type \p Ty that carries the inline tape of \p Request must hold at
/// least the bytes `enzyme_allocated` says (the ABI may widen a small
/// struct, so it can be larger).
static bool checkInlineTapeType(const DiffRequest &Request, Type *Ty,
                                StringRef How) {
  const DataLayout &DL = Request.Call->getModule()->getDataLayout();
  uint64_t Bytes = Ty->isSized() ? DL.getTypeAllocSize(Ty).getFixedValue() : 0;
  if (Bytes >= *Request.AllocatedTapeBytes)
    return true;
  reportError(*Request.Call,
              Twine(requestEntryName(Request.Mode)) + " is " + How + " '" +
                  displayType(Ty) + "' (" + Twine(Bytes) +
                  " bytes), but 'enzyme_allocated' says the inline tape has " +
                  Twine(*Request.AllocatedTapeBytes) + " bytes");
  return false;
}

/// The bytes of the buffer for an inline tape carried as \p Ty.
static uint64_t inlineTapeBytes(const DiffRequest &Request, Type *Ty) {
  const DataLayout &DL = Request.Call->getModule()->getDataLayout();
  return std::max(*Request.AllocatedTapeBytes,
                  DL.getTypeAllocSize(Ty).getFixedValue());
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
  // An inline tape is the first field of the declared result (or all of
  // it), filled from a buffer of the size the user gave.
  Type *InlineTapeTy = nullptr;
  Value *Tape;
  if (Request.AllocatedTapeBytes) {
    auto *ST = dyn_cast<StructType>(Declared);
    InlineTapeTy = ST && ST->getNumElements() == 2 &&
                           !Request.Fn->getReturnType()->isVoidTy()
                       ? ST->getElementType(0)
                       : Declared;
    if (!checkInlineTapeType(Request, InlineTapeTy, "declared to return"))
      return LoweringResult::Failed;
    Tape = Gen.tape().createFixedTape(*Call.getFunction(),
                                      inlineTapeBytes(Request, InlineTapeTy),
                                      "inline.tape");
  } else {
    Tape = Gen.tape().createHeapTape(B);
  }
  SmallVector<Value *, 8> Args(Request.Primals.begin(), Request.Primals.end());
  for (Value *Shadow : Request.Shadows)
    if (Shadow)
      Args.push_back(Shadow);
  Args.push_back(Tape);
  // Scratch shadows live from the augmented forward call to its reverse
  // call (Core/ScratchShadows.h).
  if (makesScratchShadows(*Pair.Augmented))
    beginScratchShadows(B);
  CallInst *Primal = B.CreateCall(Pair.Augmented, Args);
  Primal->setDebugLoc(Call.getDebugLoc());
  if (Request.Context)
    setCurrentContextAround(*Primal, Request.Context);
  if (InlineTapeTy)
    Tape = B.CreateAlignedLoad(InlineTapeTy, Tape, Align(1), "tape");

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
  if (Request.AllocatedTapeBytes) {
    // The inline tape comes by value; the pair reads it from memory. A C
    // variadic call promotes a float tape to double: undo that.
    uint64_t Bytes = *Request.AllocatedTapeBytes;
    if (Tape->getType()->isDoubleTy() && Bytes == 4)
      Tape = B.CreateFPTrunc(Tape, B.getFloatTy());
    else if (Tape->getType()->isIntegerTy() && Bytes < 4)
      Tape = B.CreateTrunc(Tape, B.getIntNTy(Bytes * 8));
    if (!checkInlineTapeType(Request, Tape->getType(), "given a tape of type"))
      return LoweringResult::Failed;
    Value *Buffer = Gen.tape().createFixedTape(
        *Call.getFunction(), inlineTapeBytes(Request, Tape->getType()),
        "inline.tape");
    B.CreateAlignedStore(Tape, Buffer, Align(1));
    Tape = Buffer;
  } else if (Tape->getType()->isIntegerTy()) {
    Tape = B.CreateIntToPtr(Tape, B.getPtrTy());
  }
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
  // Shadows of blocks freed away from their allocator are freed after the
  // reverse pass (Core/ShadowMemory.h).
  Value *SweepMark = handsOverShadows(*Pair.Reverse) ? beginSweep(B) : nullptr;
  CallInst *Grads = B.CreateCall(Pair.Reverse, Args);
  Grads->setDebugLoc(Call.getDebugLoc());
  if (SweepMark)
    endSweep(B, SweepMark, /*Gradient=*/false);
  if (makesScratchShadows(*Pair.Augmented))
    endScratchShadows(B);
  if (Request.Context)
    setCurrentContextAround(*Grads, Request.Context);
  if (!Request.AllocatedTapeBytes)
    Gen.tape().destroyHeapTape(B, Tape);
  Value *GradsValue = Grads->getType()->isVoidTy() ? nullptr : Grads;
  Value *Result = Request.Width > 1
                      ? convertLaneResults(B, structFields(B, GradsValue),
                                           declaredResultType(Request), Request,
                                           "the gradients")
                      : convertResults(B, structFields(B, GradsValue),
                                       declaredResultType(Request), Request,
                                       "the gradients");
  replaceRequest(Request, Result);
  return LoweringResult::Done;
}

LoweringResult lowerSplitRequest(const DiffRequest &Original,
                                 ReverseModeGenerator &Gen,
                                 bool AllowDeferral) {
  DiffRequest Request = Original;
  if (!checkSplitRequest(Request)) {
    replaceRequest(Request, nullptr);
    return LoweringResult::Failed;
  }
  ReverseSignature Sig = splitSignature(Request);
  DifferentiationFailure Failure;
  const ReversePair *Pair = Gen.getOrCreate(Sig, Failure);
  if (!Pair)
    return handleGenerationFailure(Request, Failure, AllowDeferral);
  if (Sig.FixedTape) {
    uint64_t Needed = *Gen.fixedTapeBytes(Sig);
    if (Request.Mode == RequestMode::AugmentSize) {
      Type *Declared = declaredResultType(Request);
      if (!Declared->isIntegerTy()) {
        reportError(*Request.Call, "__enzyme_augmentsize returns the bytes "
                                   "an inline tape needs; declare it to "
                                   "return an integer type (size_t)");
        return LoweringResult::Failed;
      }
      replaceRequest(Request, ConstantInt::get(Declared, Needed));
      return LoweringResult::Done;
    }
    if (Needed > *Request.AllocatedTapeBytes) {
      reportError(*Request.Call,
                  Twine(requestEntryName(Request.Mode)) + ": the tape of '" +
                      displayName(Request.Fn->getName()) + "' needs " +
                      Twine(Needed) + " bytes, but 'enzyme_allocated' gives " +
                      Twine(*Request.AllocatedTapeBytes) + "; pass " +
                      "'enzyme_allocated, " + Twine(Needed) +
                      "' (and make the tape that large)");
      return LoweringResult::Failed;
    }
  }
  if (Request.Mode == RequestMode::AugmentedForward)
    return lowerAugmentedForward(Request, *Pair, Gen);
  return lowerReverse(Request, Sig, *Pair, Gen);
}

} // namespace enzyme
