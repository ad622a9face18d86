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

#include "Core/Diagnostics.h"
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
      Params.push_back(Fn.getArg(A)->getType());
  auto *Grad =
      Function::Create(FunctionType::get(RevTy->getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, Fn.getName() + ".grad", M);
  for (const Attribute &A : Fn.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      Grad->addFnAttr(A);

  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Grad));
  Value *Tape = Gen.tape().createTape(B);
  SmallVector<Value *, 8> Args;
  for (Argument &A : Grad->args())
    Args.push_back(&A);
  SmallVector<Value *, 8> AugArgs(Args);
  AugArgs.push_back(Tape);
  CallInst *Aug = B.CreateCall(Pair.Augmented, AugArgs);
  SmallVector<Value *, 8> RevArgs(Args);
  if (Sig.ReturnActive)
    RevArgs.push_back(ConstantFP::get(Fn.getReturnType(), 1.0));
  RevArgs.push_back(Tape);
  CallInst *Rev = B.CreateCall(Pair.Reverse, RevArgs);
  Gen.tape().destroyTape(B, Tape);
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

/// Converts the gradients (a struct of the active scalars' types) to the
/// return type the user declared.
static Value *convertGradients(IRBuilder<> &B, Value *Grads, Type *To,
                               const Function &Fn, const CallBase &Call) {
  SmallVector<Value *, 4> Fields;
  if (Grads)
    for (unsigned I = 0;
         I < cast<StructType>(Grads->getType())->getNumElements(); ++I)
      Fields.push_back(B.CreateExtractValue(Grads, I));

  auto Convert = [&](Value *V, Type *Ty) -> Value * {
    if (V->getType() == Ty)
      return V;
    if (V->getType()->isFloatingPointTy() && Ty->isFloatingPointTy())
      return B.CreateFPCast(V, Ty);
    return nullptr;
  };

  auto Mismatch = [&](const Twine &What) -> Value * {
    reportError(Call, "__enzyme_autodiff is declared to return " + What +
                          ", but the gradients of '" +
                          displayName(Fn.getName()) + "' are " +
                          Twine(Fields.size()) +
                          " floating-point values; declare it to return "
                          "a floating-point type (one active scalar) or a "
                          "struct with one floating-point field per active "
                          "argument");
    return nullptr;
  };

  if (To->isVoidTy())
    return nullptr;
  if (Fields.size() == 1 && Fields[0]->getType() == To)
    return Fields[0]; // One active argument of the declared type.
  if (To->isFloatingPointTy()) {
    if (Fields.size() > 1)
      return Mismatch("'" + displayType(To) + "'");
    return Fields.empty() ? ConstantFP::get(To, 0.0) : Convert(Fields[0], To);
  }
  if (auto *VT = dyn_cast<FixedVectorType>(To)) {
    // A struct of two floats comes back as <2 x float> on x86-64.
    if (!VT->getElementType()->isFloatingPointTy() ||
        Fields.size() > VT->getNumElements())
      return Mismatch("a vector of " + Twine(VT->getNumElements()) + " '" +
                      displayType(VT->getElementType()) + "'");
    Value *Result = Constant::getNullValue(To);
    for (unsigned I = 0; I < Fields.size(); ++I) {
      Value *V = Convert(Fields[I], VT->getElementType());
      if (!V)
        return Mismatch("a vector of " + Twine(VT->getNumElements()) + " '" +
                        displayType(VT->getElementType()) + "'");
      Result = B.CreateInsertElement(Result, V, I);
    }
    return Result;
  }
  if (isa<StructType>(To) || isa<ArrayType>(To)) {
    unsigned N = isa<StructType>(To) ? cast<StructType>(To)->getNumElements()
                                     : cast<ArrayType>(To)->getNumElements();
    if (Fields.size() > N)
      return Mismatch("an aggregate of " + Twine(N) + " fields");
    Value *Result = Constant::getNullValue(To);
    for (unsigned I = 0; I < Fields.size(); ++I) {
      Type *ElemTy = isa<StructType>(To)
                         ? cast<StructType>(To)->getElementType(I)
                         : cast<ArrayType>(To)->getElementType();
      Value *V = Convert(Fields[I], ElemTy);
      if (!V)
        return Mismatch("a struct whose field " + Twine(I + 1) + " is '" +
                        displayType(ElemTy) + "'");
      Result = B.CreateInsertValue(Result, V, I);
    }
    return Result;
  }
  if (Fields.empty())
    return Constant::getNullValue(To);
  return Mismatch("'" + displayType(To) + "'");
}

/// \p F loads memory it did not allocate itself (through an argument, a
/// global or a loaded pointer).
static bool loadsCallerMemory(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I)) {
      const Value *Object = getUnderlyingObject(Load->getPointerOperand(), 0);
      if (isa<Argument>(Object) || isa<GlobalVariable>(Object) ||
          isa<LoadInst>(Object))
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
  Sig.ReturnActive = Request.Fn->getReturnType()->isFloatingPointTy();
  // The gradient function runs the reverse pass right after the forward.
  // (For a function that loads nothing from its caller's memory the flag
  // changes nothing; leaving it off lets recursive calls share the pair.)
  Sig.InputsKeptUntilReverse = loadsCallerMemory(*Request.Fn);

  DifferentiationFailure Failure;
  const ReversePair *Pair = Gen.getOrCreate(Sig, Failure);
  if (!Pair) {
    if (Failure.MissingDefinition && AllowDeferral) {
      // Remember where the request was, for an error at link time.
      CallBase &Call = *Request.Call;
      std::string Where = describeLocation(Call.getDebugLoc());
      if (!Where.empty())
        Call.setMetadata("enzyme.srcloc",
                         MDNode::get(Call.getContext(),
                                     MDString::get(Call.getContext(), Where)));
      return LoweringResult::Deferred;
    }
    std::string Name = displayName(Request.Fn->getName());
    std::string Message =
        Request.Fn->isDeclaration()
            ? "cannot differentiate '" + Name +
                  "': it has no definition in this module"
            : "cannot differentiate '" + Name + "': " + Failure.Message;
    if (Failure.MissingDefinition)
      Message += "; compile the file that defines it with -fenzyme and link "
                 "with -fenzyme, or give it a custom derivative "
                 "(__enzyme_register_gradient_NAME), or mark it inactive "
                 "(__enzyme_inactivefn)";
    reportError(*Request.Call, Message, Failure.OffendingLocation);
    return LoweringResult::Failed;
  }

  Function *&Grad = Gen.gradientFunction(Sig);
  if (!Grad)
    Grad = createGradientFunction(Request, Sig, *Pair, Gen);
  // A request inside a C++ try scope is an invoke; the gradient function
  // does not throw, so a plain call and a branch replace it.
  CallBase *RequestCall = Request.Call;
  if (auto *Invoke = dyn_cast<InvokeInst>(RequestCall))
    RequestCall = changeToCall(Invoke);
  CallBase &Call = *RequestCall;
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args(Request.Primals.begin(), Request.Primals.end());
  for (Value *Shadow : Request.Shadows)
    if (Shadow)
      Args.push_back(Shadow);
  CallInst *Grads = B.CreateCall(Grad, Args);
  Grads->setDebugLoc(Call.getDebugLoc());
  Value *GradsValue = Grads->getType()->isVoidTy() ? nullptr : Grads;

  Type *Declared =
      Request.StructReturn ? Request.StructReturnType : Call.getType();
  Value *Result = convertGradients(B, GradsValue, Declared, *Request.Fn, Call);
  if (!Result && !Declared->isVoidTy())
    Result = PoisonValue::get(Declared); // A mismatch was reported.
  if (Request.StructReturn && Result)
    B.CreateStore(Result, Request.StructReturn);
  else if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Result ? Result
                                   : Constant::getNullValue(Call.getType()));
  // The activity markers were only arguments of the request; their loads
  // would keep `extern int enzyme_dup` alive until the link.
  SmallSetVector<Instruction *, 8> Markers; // One load may serve several.
  for (Value *Arg : Call.args())
    if (auto *Load = dyn_cast<LoadInst>(Arg))
      if (auto *GV = dyn_cast<GlobalVariable>(Load->getPointerOperand());
          GV && GV->getName().starts_with("enzyme_"))
        Markers.insert(Load);
  Call.eraseFromParent();
  for (Instruction *Marker : Markers)
    if (Marker->use_empty())
      Marker->eraseFromParent();
  return LoweringResult::Done;
}

} // namespace enzyme
