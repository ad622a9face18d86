//===- ReverseModeGenerator.cpp - Augmented forward + reverse pairs -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/ReverseModeGenerator.h"
#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/Lanes.h"
#include "Core/OpenMPRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"
#include "Modes/ChoiceSplitting.h"
#include "Modes/CustomGradientPair.h"
#include "Modes/FloatBitWebs.h"
#include "Modes/FunctionDifferentiator.h"
#include "Modes/IndirectCalls.h"
#include "Modes/PreparedFunction.h"
#include "Modes/UnshadowedReturns.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"

using namespace llvm;

namespace enzyme {

ReverseModeGenerator::ReverseModeGenerator(
    Module &M, FunctionAnalysisManager &FAM, FunctionPassManager *Cleanup,
    const UserRegistrations *Registrations, unsigned Level)
    : M(M), FAM(FAM), Cleanup(Cleanup), Registrations(Registrations),
      Tape(M, Level) {
  if (!canLinkRuntime(M))
    UnshadowedReturnsOracle = std::make_unique<UnshadowedReturns>(
        FAM, [this](Function &F) { return prepare(F); });
}

ReverseModeGenerator::~ReverseModeGenerator() = default;

FunctionType *
ReverseModeGenerator::getAugmentedType(const ReverseSignature &Sig) const {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  for (unsigned A = 0; A < FT->getNumParams(); ++A)
    if (hasShadow(Sig.Args[A]))
      Params.push_back(shadowType(FT->getParamType(A), Sig.Width));
  Params.push_back(PointerType::getUnqual(M.getContext()));
  Type *Ret = FT->getReturnType();
  if (Sig.ReturnShadow)
    Ret = StructType::get(M.getContext(), {Ret, shadowType(Ret, Sig.Width)});
  return FunctionType::get(Ret, Params, false);
}

FunctionType *
ReverseModeGenerator::getReverseType(const ReverseSignature &Sig) const {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  SmallVector<Type *, 4> Gradients;
  for (unsigned A = 0; A < FT->getNumParams(); ++A) {
    if (hasShadow(Sig.Args[A]))
      Params.push_back(shadowType(FT->getParamType(A), Sig.Width));
    if (Sig.Args[A] == Activity::Out)
      Gradients.push_back(shadowType(FT->getParamType(A), Sig.Width));
  }
  if (Sig.ReturnActive)
    Params.push_back(shadowType(FT->getReturnType(), Sig.Width));
  Params.push_back(PointerType::getUnqual(M.getContext()));
  Type *Ret = Gradients.empty() ? Type::getVoidTy(M.getContext())
                                : StructType::get(M.getContext(), Gradients);
  return FunctionType::get(Ret, Params, false);
}

static Function *createFunction(Module &M, FunctionType *FT, const Twine &Name,
                                const Function &Like) {
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  copyCodegenAttributes(Like, *F);
  return F;
}

Function *ReverseModeGenerator::prepare(Function &F) {
  auto Targets = [&](FunctionType *FT) {
    DifferentiationFailure Ignored;
    return possibleCallTargets(M, FT, /*KernelLaunch=*/false, Registrations,
                               DeferIndirectCalls, Ignored);
  };
  return prepareForDifferentiation(F, FAM, Targets);
}

void ReverseModeGenerator::discard(Function *F) { discardFunction(F, FAM); }

bool ReverseModeGenerator::reachesThreadBarrier(const Function &F) {
  if (auto It = ReachesBarrier.find(&F); It != ReachesBarrier.end())
    return It->second;
  // One walk of what F calls; only whole walks' answers are kept (a walk
  // cut at a cycle says nothing of the functions on it).
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&F};
  bool Reaches = false;
  while (!Work.empty() && !Reaches) {
    const Function *G = Work.pop_back_val();
    if (!Seen.insert(G).second)
      continue;
    if (auto It = ReachesBarrier.find(G); It != ReachesBarrier.end()) {
      Reaches = It->second;
      continue;
    }
    for (const Instruction &I : instructions(*G)) {
      if (isThreadBarrier(I)) {
        Reaches = true;
        break;
      }
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration())
          Work.push_back(Callee);
    }
  }
  ReachesBarrier[&F] = Reaches;
  return Reaches;
}

void ReverseModeGenerator::cleanup(Function &F, const ReverseSignature &Sig) {
  Tape.markDisjointFromTape(F);
  finishGeneratedFunction(F, *Sig.Fn, Sig.Args, FAM, Cleanup);
}

const ReversePair *
ReverseModeGenerator::generate(const ReverseSignature &Sig,
                               DifferentiationFailure &Failure) {
  auto It = Pairs.find(Sig);
  if (It != Pairs.end())
    return &It->second;
  Function &F = *Sig.Fn;
  if (const CustomGradient *Custom =
          Registrations ? Registrations->gradientOf(&F) : nullptr)
    return generateCustom(Sig, *Custom, Failure);
  if (isParallelRegion(F))
    return generateParallelRegion(Sig, Failure);
  if (Function *Body = inactiveDeclarationBody(F)) {
    ReverseSignature Inner = Sig;
    Inner.Fn = Body;
    return generate(Inner, Failure);
  }
  if (!checkPreparable(F, Failure))
    return nullptr;

  auto [Slot, Inserted] = Pairs.try_emplace(Sig);
  const ReverseSignature &Key = Slot->first;
  ReversePair &Pair = Slot->second;
  Pair.Augmented =
      createFunction(M, getAugmentedType(Sig), F.getName() + ".aug", F);
  Pair.Reverse =
      createFunction(M, getReverseType(Sig), F.getName() + ".rev", F);
  Pending.push_back(Pair.Augmented);
  Pending.push_back(Pair.Reverse);
  PendingSignatures.push_back(Key);

  Function *Prepared = prepare(F);
  if (splitReadsThroughMixedChoices(*Prepared, Key.Args, Key.ReturnShadow,
                                    Key.ContextShadows))
    FAM.invalidate(*Prepared, PreservedAnalyses::none());
  bool Ok;
  {
    FunctionDifferentiator Differentiator(*this, Key, *Prepared, Pair, FAM);
    Ok = Differentiator.run(Failure);
  }
  discard(Prepared);
  return Ok ? &Pair : nullptr;
}

const ReversePair *
ReverseModeGenerator::generateCustom(const ReverseSignature &Sig,
                                     const CustomGradient &Custom,
                                     DifferentiationFailure &Failure) {
  Function &F = *Sig.Fn;
  if (Sig.Width != 1) {
    Failure.Message = "'" + displayName(F.getName()) +
                      "' has a custom gradient, which computes one "
                      "direction; vector reverse mode (enzyme_width " +
                      std::to_string(Sig.Width) +
                      ") cannot use it, compute the gradients one seed at "
                      "a time";
    return nullptr;
  }
  auto [Slot, Inserted] = Pairs.try_emplace(Sig);
  ReversePair &Pair = Slot->second;
  Pair.Augmented =
      createFunction(M, getAugmentedType(Sig), F.getName() + ".custom.aug", F);
  Pair.Reverse =
      createFunction(M, getReverseType(Sig), F.getName() + ".custom.rev", F);
  Pending.push_back(Pair.Augmented);
  Pending.push_back(Pair.Reverse);
  PendingSignatures.push_back(Slot->first);
  if (!buildCustomGradientPair(Slot->first, Custom, Pair, Tape, Failure))
    return nullptr;
  if (Sig.FixedTape)
    FixedTapeSizes[Sig] =
        Custom.TapeType ? Tape.packedSize({Custom.TapeType}) : 0;
  else
    TapeBounds[Sig] = Custom.TapeType
                          ? Tape.batchSize({UndefValue::get(Custom.TapeType)})
                          : 0;
  return &Pair;
}

const ReversePair *
ReverseModeGenerator::getOrCreate(const ReverseSignature &Sig,
                                  DifferentiationFailure &Failure) {
  Pending.clear();
  PendingSignatures.clear();
  PendingDispatchKeys.clear();
  PendingHelpers.clear();
  const ReversePair *Pair = generate(Sig, Failure);
  if (!Pair) {
    // Nothing of a failed request stays in the module.
    for (const ReverseSignature &S : PendingSignatures) {
      Pairs.erase(S);
      FixedTapeSizes.erase(S);
      TapeBounds.erase(S);
    }
    for (const DispatchKey &K : PendingDispatchKeys)
      Dispatchers.erase(K);
    Pending.insert(Pending.end(), PendingHelpers.begin(), PendingHelpers.end());
    for (Function *F : Pending)
      F->dropAllReferences();
    for (Function *F : Pending) {
      FAM.clear(*F, F->getName());
      F->eraseFromParent();
    }
  } else {
    // Pending holds each signature's augmented and reverse function.
    for (size_t I = 0; I < PendingSignatures.size(); ++I) {
      cleanup(*Pending[2 * I], PendingSignatures[I]);
      cleanup(*Pending[2 * I + 1], PendingSignatures[I]);
    }
  }
  Pending.clear();
  PendingSignatures.clear();
  return Pair;
}

} // namespace enzyme
