//===- RequestLowering.cpp - Replacing a request by its derivative --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A reverse-mode request becomes a call to a gradient function
///
///   Grad f.grad(args..., shadows...) {
///     tape t = {}; aug(args..., shadows..., &t);
///     g = rev(args..., shadows..., 1.0, &t); free(t); return g; }
///
/// with the pair inlined and cleaned up, and the gradients converted to the
/// type the user declared for `__enzyme_autodiff` (a scalar, a struct in
/// registers, or a struct returned through memory).
///
//===----------------------------------------------------------------------===//

#include "Plugin/RequestLowering.h"
#include "Plugin/LaneResults.h"
#include "Plugin/LoweringSupport.h"

#include "Core/ContextShadows.h"
#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/Lanes.h"
#include "Core/ScratchShadows.h"
#include "Core/ShadowMemory.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace enzyme {

static Function *createGradientFunction(const DiffRequest &Request,
                                        const ReverseSignature &Sig,
                                        const ReversePair &Pair,
                                        ReverseModeGenerator &Gen) {
  Function &Fn = *Request.Fn;
  Module &M = *Fn.getParent();
  FunctionType *RevTy = Pair.Reverse->getFunctionType();
  SmallVector<Type *, 8> Params(Fn.getFunctionType()->params());
  for (unsigned A = 0; A < Fn.arg_size(); ++A)
    if (hasShadow(Sig.Args[A]))
      Params.push_back(shadowType(Fn.getArg(A)->getType(), Sig.Width));
  auto *Grad =
      Function::Create(FunctionType::get(RevTy->getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, Fn.getName() + ".grad", M);
  for (const Attribute &A : Fn.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      Grad->addFnAttr(A);

  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Grad));
  // Shadows of blocks freed away from their allocator are freed after the
  // reverse pass (Core/ShadowMemory.h).
  Value *SweepMark = handsOverShadows(*Pair.Reverse) ? beginSweep(B) : nullptr;
  Value *Tape;
  if (Sig.FixedTape) {
    // The thread's local memory holds the whole tape (GPU device code).
    Tape = Gen.tape().createFixedTape(*Grad, *Gen.fixedTapeBytes(Sig), "tape");
  } else {
    Tape = Gen.tape().createTape(B, Gen.tapeBound(Sig));
  }
  SmallVector<Value *, 8> Args;
  for (Argument &A : Grad->args())
    Args.push_back(&A);
  SmallVector<Value *, 8> AugArgs(Args);
  AugArgs.push_back(Tape);
  // Scratch shadows live for the whole gradient (Core/ScratchShadows.h).
  bool Scratch = makesScratchShadows(*Pair.Augmented);
  if (Scratch)
    beginScratchShadows(B);
  CallInst *Aug = B.CreateCall(Pair.Augmented, AugArgs);
  SmallVector<Value *, 8> RevArgs(Args);
  if (Sig.ReturnActive) {
    // The result's adjoint is 1 in every direction; in vector mode the
    // directions differ through the seeds in the shadows of outputs.
    Type *RetTy = Fn.getReturnType();
    Constant *One = ConstantFP::get(RetTy, 1.0);
    Type *SeedTy = shadowType(RetTy, Sig.Width);
    if (auto *AT = dyn_cast<ArrayType>(SeedTy))
      One = ConstantArray::get(
          AT, SmallVector<Constant *, 8>(AT->getNumElements(), One));
    else if (SeedTy != RetTy)
      One = ConstantFP::get(SeedTy, 1.0); // A splat.
    RevArgs.push_back(One);
  }
  RevArgs.push_back(Tape);
  CallInst *Rev = B.CreateCall(Pair.Reverse, RevArgs);
  if (!Sig.FixedTape)
    Gen.tape().destroyTape(B, Tape);
  if (SweepMark)
    endSweep(B, SweepMark, /*Gradient=*/true);
  if (Scratch)
    endScratchShadows(B);
  if (Rev->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Rev);

  InlineFunctionInfo Info;
  InlineFunction(*Aug, Info);
  InlineFunction(*Rev, Info);
  Gen.cleanup(*Grad, Sig);
  return Grad;
}

/// \p F loads memory it did not allocate itself (through an argument, a
/// global or a loaded pointer).
static bool loadsCallerMemory(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I)) {
      // Through phis and selects too: a pointer that walks an argument.
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Load->getPointerOperand(), Objects);
      if (any_of(Objects, [](const Value *Object) {
            return isa<Argument>(Object) || isa<GlobalVariable>(Object) ||
                   isa<LoadInst>(Object);
          }))
        return true;
    }
  return false;
}

LoweringResult lowerReverseRequest(const DiffRequest &Request,
                                   ReverseModeGenerator &Gen,
                                   bool AllowDeferral) {
  ReverseSignature Sig;
  Sig.Fn = Request.Fn;
  Sig.Args.assign(Request.Activities.begin(), Request.Activities.end());
  Sig.ReturnActive = Request.Fn->getReturnType()->isFloatingPointTy() &&
                     Request.ReturnActivity != ResultActivity::Const;
  // The gradient function runs the reverse pass right after the forward.
  // (For a function that loads nothing from its caller's memory the flag
  // changes nothing; leaving it off lets recursive calls share the pair.)
  Sig.InputsKeptUntilReverse = loadsCallerMemory(*Request.Fn);
  Sig.Width = Request.Width;
  Sig.ContextShadows = Request.Context != nullptr;

  // In GPU device code the tape lives in the thread's local memory when its
  // size is fixed at compile time (no values recorded in loops or
  // recursion): the device heap is small and slow. Otherwise it grows on
  // the device heap.
  const ReversePair *Pair = nullptr;
  if (isGpuModule(*Request.Fn->getParent())) {
    ReverseSignature Fixed = Sig;
    Fixed.FixedTape = true;
    DifferentiationFailure NoFixedLayout;
    if ((Pair = Gen.getOrCreate(Fixed, NoFixedLayout)))
      Sig = Fixed;
  }
  DifferentiationFailure Failure;
  if (!Pair)
    Pair = Gen.getOrCreate(Sig, Failure);
  if (!Pair)
    return handleGenerationFailure(Request, Failure, AllowDeferral);

  Function *&Grad = Gen.gradientFunction(Sig);
  if (!Grad)
    Grad = createGradientFunction(Request, Sig, *Pair, Gen);
  DiffRequest Lowered = Request;
  CallBase &Call = requestCallAsCall(Lowered);
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args;
  for (auto [Param, Primal] : enumerate(Request.Primals))
    Args.push_back(passAsArgument(B, Request, Param, Primal));
  for (Value *Shadow : Request.Shadows)
    if (Shadow)
      Args.push_back(Shadow);
  CallInst *Grads = B.CreateCall(Grad, Args);
  Grads->setDebugLoc(Call.getDebugLoc());
  if (Request.Context)
    setCurrentContextAround(*Grads, Request.Context);
  Value *GradsValue = Grads->getType()->isVoidTy() ? nullptr : Grads;
  Value *Result = Request.Width > 1
                      ? convertLaneResults(B, structFields(B, GradsValue),
                                           declaredResultType(Lowered), Lowered,
                                           "the gradients")
                      : convertResults(B, structFields(B, GradsValue),
                                       declaredResultType(Lowered), Lowered,
                                       "the gradients");
  replaceRequest(Lowered, Result);
  return LoweringResult::Done;
}

} // namespace enzyme
