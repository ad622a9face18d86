//===- DeviceDerivativeInlining.cpp - Derivatives inside kernels ----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/DeviceDerivativeInlining.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> InlineDeviceDerivatives(
    "enzyme-inline-device-derivatives",
    cl::desc("Inline derivatives of GPU device code into the functions that "
             "ask for them (tests turn it off to read a derivative alone)"),
    cl::init(true));

namespace enzyme {

static bool callsItself(const Function &F) {
  return any_of(F.users(), [&](const User *U) {
    const auto *Call = dyn_cast<CallBase>(U);
    return Call && Call->getFunction() == &F;
  });
}

void inlineDerivativesIntoRequesters(
    Module &M, function_ref<bool(const Function &)> IsGenerated,
    function_ref<bool(const Function &)> AsksForDerivatives) {
  if (!isGpuModule(M))
    return;
  for (Function &F : M) {
    if (F.isDeclaration() || !IsGenerated(F))
      continue;
    F.addFnAttr(Attribute::Convergent);
    if (!F.hasLocalLinkage() || F.hasFnAttribute(Attribute::NoInline) ||
        callsItself(F))
      continue;
    if (!InlineDeviceDerivatives)
      continue;
    bool CalledByRequester = any_of(F.users(), [&](const User *U) {
      const auto *Call = dyn_cast<CallBase>(U);
      return Call && Call->getCalledFunction() == &F &&
             AsksForDerivatives(*Call->getFunction());
    });
    if (CalledByRequester)
      F.addFnAttr(InlinedAfterAD);
  }
}

/// Whether every object \p Ptr may point into is a pointer argument of the
/// kernel \p Kernel (not a byval copy, which lives in the parameter space).
static bool derivesFromKernelArguments(const Value *Ptr,
                                       const Function &Kernel) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return !Objects.empty() && all_of(Objects, [&](const Value *Object) {
    const auto *Arg = dyn_cast<Argument>(Object);
    return Arg && Arg->getParent() == &Kernel && !Arg->hasByValAttr();
  });
}

void answerKernelArgumentSpaceQueries(
    Module &M, function_ref<bool(const Function &)> Touched) {
  if (!isCudaModule(M))
    return;
  for (Function &F : M) {
    if (F.isDeclaration() || !isCudaKernel(F) || !Touched(F))
      continue;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *Query = dyn_cast<IntrinsicInst>(&I);
      if (!Query || !isShadowSpaceQuery(*Query))
        continue;
      bool Answer;
      switch (Query->getIntrinsicID()) {
      case Intrinsic::nvvm_isspacep_global:
        Answer = true;
        break;
      case Intrinsic::nvvm_isspacep_local:
      case Intrinsic::nvvm_isspacep_shared:
      case Intrinsic::nvvm_isspacep_const:
        Answer = false;
        break;
      default:
        continue;
      }
      if (!derivesFromKernelArguments(Query->getArgOperand(0), F))
        continue;
      Query->replaceAllUsesWith(
          ConstantInt::getBool(Query->getContext(), Answer));
      Query->eraseFromParent();
    }
  }
}

} // namespace enzyme
