//===- LoweringSupport.cpp - What every request lowering shares -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/LoweringSupport.h"

#include "Core/Diagnostics.h"
#include "Modes/ReverseModeGenerator.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace enzyme {

LoweringResult handleGenerationFailure(const DiffRequest &Request,
                                       const DifferentiationFailure &Failure,
                                       bool AllowDeferral) {
  CallBase &Call = *Request.Call;
  if (Failure.MissingDefinition && AllowDeferral) {
    // Remember where the request was, for an error at link time.
    std::string Where = describeLocation(Call.getDebugLoc());
    if (!Where.empty())
      Call.setMetadata("enzyme.srcloc",
                       MDNode::get(Call.getContext(),
                                   MDString::get(Call.getContext(), Where)));
    return LoweringResult::Deferred;
  }
  std::string Name = displayName(Request.Fn->getName());
  // A function without a body may still have a custom derivative, whose
  // own failure is the one to report.
  bool NoBody = Request.Fn->isDeclaration() &&
                (Failure.MissingDefinition || Failure.Message.empty());
  std::string Message =
      NoBody ? "cannot differentiate '" + Name +
                   "': it has no definition in this module"
             : "cannot differentiate '" + Name + "': " + Failure.Message;
  // Forward mode does not use custom derivatives yet: do not suggest one.
  if (Failure.MissingDefinition)
    Message += Request.Mode == RequestMode::Forward
                   ? "; compile the file that defines it with -fenzyme and "
                     "link with -fenzyme, or mark it inactive "
                     "(__enzyme_inactivefn)"
                   : "; compile the file that defines it with -fenzyme and "
                     "link with -fenzyme, or give it a custom derivative "
                     "(__enzyme_register_gradient_NAME), or mark it inactive "
                     "(__enzyme_inactivefn)";
  reportError(Call, Message, Failure.OffendingLocation);
  return LoweringResult::Failed;
}

SmallVector<Value *, 4> structFields(IRBuilder<> &B, Value *Aggregate) {
  SmallVector<Value *, 4> Fields;
  if (Aggregate)
    for (unsigned I = 0;
         I < cast<StructType>(Aggregate->getType())->getNumElements(); ++I)
      Fields.push_back(B.CreateExtractValue(Aggregate, I));
  return Fields;
}

Value *convertResults(IRBuilder<> &B, ArrayRef<Value *> Fields, Type *To,
                      const DiffRequest &Request, const Twine &What) {
  const CallBase &Call = *Request.Call;
  auto Convert = [&](Value *V, Type *Ty) -> Value * {
    if (V->getType() == Ty)
      return V;
    if (V->getType()->isFloatingPointTy() && Ty->isFloatingPointTy())
      return B.CreateFPCast(V, Ty);
    if (V->getType()->isPointerTy() && Ty->isPointerTy())
      return B.CreatePointerBitCastOrAddrSpaceCast(V, Ty);
    return nullptr;
  };

  std::string Described;
  {
    raw_string_ostream OS(Described);
    OS << Fields.size() << (Fields.size() == 1 ? " value" : " values");
    if (!Fields.empty()) {
      OS << " (";
      for (auto [I, V] : enumerate(Fields))
        OS << (I ? ", " : "") << displayType(V->getType());
      OS << ")";
    }
  }
  auto Mismatch = [&](const Twine &Declared) -> Value * {
    reportError(Call, Twine(requestEntryName(Request.Mode)) +
                          " is declared to return " + Declared + ", but " +
                          What + " of '" + displayName(Request.Fn->getName()) +
                          "' are " + Described +
                          "; declare it to return that type (one value) or "
                          "a struct with one field per value, in order");
    return nullptr;
  };

  if (To->isVoidTy())
    return nullptr;
  if (Fields.size() == 1 && Fields[0]->getType() == To)
    return Fields[0];
  if (To->isFloatingPointTy() || To->isPointerTy() || To->isIntegerTy()) {
    if (Fields.size() > 1)
      return Mismatch("'" + displayType(To) + "'");
    if (Fields.empty())
      return Constant::getNullValue(To);
    if (Value *V = Convert(Fields[0], To))
      return V;
    return Mismatch("'" + displayType(To) + "'");
  }
  if (auto *VT = dyn_cast<FixedVectorType>(To)) {
    // A struct of two floats comes back as <2 x float> on x86-64.
    auto VectorMismatch = [&] {
      return Mismatch("a vector of " + Twine(VT->getNumElements()) + " '" +
                      displayType(VT->getElementType()) + "'");
    };
    if (!VT->getElementType()->isFloatingPointTy() ||
        Fields.size() > VT->getNumElements())
      return VectorMismatch();
    Value *Result = Constant::getNullValue(To);
    for (unsigned I = 0; I < Fields.size(); ++I) {
      Value *V = Convert(Fields[I], VT->getElementType());
      if (!V)
        return VectorMismatch();
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

Type *declaredResultType(const DiffRequest &Request) {
  return Request.StructReturn ? Request.StructReturnType
                              : Request.Call->getType();
}

CallBase &requestCallAsCall(DiffRequest &Request) {
  if (auto *Invoke = dyn_cast<InvokeInst>(Request.Call))
    Request.Call = changeToCall(Invoke);
  return *Request.Call;
}

void replaceRequest(const DiffRequest &Request, Value *Result) {
  CallBase &Call = *Request.Call;
  Type *Declared = declaredResultType(Request);
  if (!Result && !Declared->isVoidTy())
    Result = PoisonValue::get(Declared); // A mismatch was reported.
  if (Request.StructReturn && Result) {
    IRBuilder<> B(&Call);
    B.CreateStore(Result, Request.StructReturn);
  } else if (!Call.getType()->isVoidTy()) {
    Call.replaceAllUsesWith(Result ? Result
                                   : Constant::getNullValue(Call.getType()));
  }
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
}

Value *passAsArgument(IRBuilder<> &B, const DiffRequest &Request,
                      unsigned Param, Value *Value) {
  const Function &Fn = *Request.Fn;
  if (!Fn.getArg(Param)->hasByValAttr() || !Value)
    return Value;
  Type *Ty = Fn.getParamByValType(Param);
  Function *Caller = B.GetInsertBlock()->getParent();
  const DataLayout &DL = Caller->getDataLayout();
  Align A = Fn.getParamAlign(Param).value_or(DL.getABITypeAlign(Ty));
  IRBuilder<> Entry(&*Caller->getEntryBlock().getFirstInsertionPt());
  AllocaInst *Copy = Entry.CreateAlloca(Ty, nullptr, "byval.copy");
  Copy->setAlignment(A);
  B.CreateMemCpy(Copy, A, Value, Align(1), DL.getTypeAllocSize(Ty));
  return Copy;
}

} // namespace enzyme
