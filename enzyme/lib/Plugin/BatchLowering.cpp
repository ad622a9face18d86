//===- BatchLowering.cpp - Replacing __enzyme_batch -----------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `__enzyme_batch(f, enzyme_width, N, args...)` evaluates f on N lanes and
/// returns the N results; no derivative is involved. The request becomes a
/// call of an internal function, one per function, width and pattern of
/// shared parameters:
///
///   <N x R> f.batchN.vs(<N x T1> a, T2 b)   ; a per lane, b shared
///     lane k:  r_k = f(a[k], b)
///
/// A parameter with one value per lane (`enzyme_vector`) arrives as
/// <N x T> (or [N x T] when T is not a float, double, pointer or integer),
/// a shared one (`enzyme_scalar`) as T; the results return the same way.
/// At -O1 and above each lane's call of f is inlined where LLVM's inline
/// cost model agrees, and the function is simplified: the lanes are then N
/// isomorphic chains from extractelements to insertelements, which the SLP
/// vectoriser later in the pipeline may merge into vector instructions.
/// The batch function stays a function of its own: inlined into the
/// caller, the lanes would meet the caller's scalars, and the SLP
/// vectoriser keeps small functions such as x * x + a scalar there.
///
//===----------------------------------------------------------------------===//

#include "Plugin/BatchLowering.h"

#include "Core/Diagnostics.h"
#include "Core/ReusableFunctions.h"
#include "Plugin/LaneResults.h"
#include "Plugin/LoweringSupport.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

/// The type that carries \p N values of type \p Ty, one per lane: a vector
/// for the types vector instructions work on, else an array.
static Type *lanesType(Type *Ty, unsigned N) {
  bool Vectorisable = Ty->isFloatTy() || Ty->isDoubleTy() ||
                      Ty->isPointerTy() ||
                      (Ty->isIntegerTy() && Ty->getIntegerBitWidth() >= 8 &&
                       isPowerOf2_32(Ty->getIntegerBitWidth()));
  if (Vectorisable)
    return FixedVectorType::get(Ty, N);
  return ArrayType::get(Ty, N);
}

static Value *laneOf(IRBuilder<> &B, Value *Lanes, unsigned K) {
  if (Lanes->getType()->isVectorTy())
    return B.CreateExtractElement(Lanes, K);
  return B.CreateExtractValue(Lanes, K);
}

static Value *withLane(IRBuilder<> &B, Value *Lanes, Value *Lane, unsigned K) {
  if (Lanes->getType()->isVectorTy())
    return B.CreateInsertElement(Lanes, Lane, K);
  return B.CreateInsertValue(Lanes, Lane, K);
}

/// Parameter \p Param of \p Request has one value per lane.
static bool isPerLane(const DiffRequest &Request, unsigned Param) {
  return Request.Width > 1 && Request.Lanes[Param].size() > 1;
}

/// Inlines \p Call when LLVM's inline cost model would.
static void inlineIfProfitable(CallInst &Call, FunctionAnalysisManager &FAM) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration())
    return;
  auto GetAC = [&](Function &F) -> AssumptionCache & {
    return FAM.getResult<AssumptionAnalysis>(F);
  };
  auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  InlineCost Cost =
      getInlineCost(Call, getInlineParams(),
                    FAM.getResult<TargetIRAnalysis>(*Callee), GetAC, GetTLI);
  if (!Cost)
    return;
  InlineFunctionInfo Info;
  InlineFunction(Call, Info);
}

/// The function that evaluates \p Request's function on every lane.
static Function *getOrCreateBatchFunction(const DiffRequest &Request,
                                          FunctionAnalysisManager &FAM,
                                          FunctionPassManager *Cleanup) {
  Function &F = *Request.Fn;
  Module &M = *F.getParent();
  unsigned N = Request.Width;
  std::string Name = (F.getName() + ".batch" + Twine(N) + ".").str();
  SmallVector<Type *, 4> Params;
  for (unsigned P = 0; P < F.arg_size(); ++P) {
    Type *Ty = F.getArg(P)->getType();
    Params.push_back(isPerLane(Request, P) ? lanesType(Ty, N) : Ty);
    Name += isPerLane(Request, P) ? 'v' : 's';
  }
  Type *RetTy = F.getReturnType();
  Type *BatchRetTy = RetTy->isVoidTy() ? RetTy : lanesType(RetTy, N);
  auto *FT = FunctionType::get(BatchRetTy, Params, /*isVarArg=*/false);
  if (Function *Existing = findReusableFunction(M, Name, FT))
    return Existing;

  Function *Batch =
      Function::Create(FT, GlobalValue::InternalLinkage, Name, &M);
  // f's target and code generation settings ("target-features"...), so
  // that f may be inlined and the lanes get the same instructions.
  for (Attribute A : F.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      Batch->addFnAttr(A);
  if (F.doesNotThrow())
    Batch->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Batch));
  // f's parameter and result attributes (byval, sret, zeroext...) hold for
  // each lane's call; its function attributes stay with f.
  AttributeList Attrs = F.getAttributes();
  AttributeList CallAttrs = AttributeList::get(
      M.getContext(), AttributeSet(), Attrs.getRetAttrs(), [&] {
        SmallVector<AttributeSet, 4> Sets;
        for (unsigned P = 0; P < F.arg_size(); ++P)
          Sets.push_back(Attrs.getParamAttrs(P));
        return Sets;
      }());
  Value *Results = RetTy->isVoidTy() ? nullptr : PoisonValue::get(BatchRetTy);
  SmallVector<CallInst *, 8> Calls;
  for (unsigned K = 0; K < N; ++K) {
    SmallVector<Value *, 4> Args;
    for (unsigned P = 0; P < F.arg_size(); ++P)
      Args.push_back(isPerLane(Request, P) ? laneOf(B, Batch->getArg(P), K)
                                           : Batch->getArg(P));
    CallInst *Call = B.CreateCall(&F, Args);
    Call->setCallingConv(F.getCallingConv());
    Call->setAttributes(CallAttrs);
    Calls.push_back(Call);
    if (Results)
      Results = withLane(B, Results, Call, K);
  }
  if (Results)
    B.CreateRet(Results);
  else
    B.CreateRetVoid();

  if (Cleanup) {
    for (CallInst *Call : Calls)
      inlineIfProfitable(*Call, FAM);
    // f's locations and variables mean nothing in a function of its own
    // without a subprogram.
    stripDebugInfo(*Batch);
    FAM.invalidate(*Batch, PreservedAnalyses::none());
    Cleanup->run(*Batch, FAM);
  }
  return Batch;
}

LoweringResult lowerBatchRequest(const DiffRequest &Request,
                                 FunctionAnalysisManager &FAM,
                                 FunctionPassManager *Cleanup) {
  DiffRequest Lowered = Request;
  Type *Declared = declaredResultType(Lowered);
  Function &F = *Request.Fn;
  if (F.getReturnType()->isVoidTy() && !Declared->isVoidTy()) {
    reportError(*Request.Call,
                "__enzyme_batch: '" + displayName(F.getName()) +
                    "' returns void, so the batch has no results; declare "
                    "__enzyme_batch to return void");
    replaceRequest(Lowered, nullptr);
    return LoweringResult::Failed;
  }
  Function *Batch = getOrCreateBatchFunction(Request, FAM, Cleanup);

  CallBase &Call = requestCallAsCall(Lowered);
  IRBuilder<> B(&Call);
  SmallVector<Value *, 4> Args;
  for (unsigned P = 0; P < F.arg_size(); ++P) {
    if (!isPerLane(Request, P)) {
      Args.push_back(Request.Lanes[P][0]);
      continue;
    }
    Type *Ty = Batch->getArg(P)->getType();
    Value *Lanes = PoisonValue::get(Ty);
    for (auto [K, V] : enumerate(Request.Lanes[P]))
      Lanes = withLane(B, Lanes, V, K);
    Args.push_back(Lanes);
  }
  CallInst *Results = B.CreateCall(Batch, Args);
  Results->setDebugLoc(Call.getDebugLoc());
  Value *Converted = nullptr;
  if (!Results->getType()->isVoidTy())
    Converted =
        convertLaneResults(B, {Results}, Declared, Lowered, "the results");
  bool Mismatch = !Converted && !Declared->isVoidTy();
  replaceRequest(Lowered, Converted);
  return Mismatch ? LoweringResult::Failed : LoweringResult::Done;
}

} // namespace enzyme
