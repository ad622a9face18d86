//===- DeviceMathLibrary.cpp - libdevice in derivatives of GPU code -------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/DeviceMathLibrary.h"
#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Rules/MathRules.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

static cl::opt<std::string> LibdevicePath(
    "enzyme-libdevice",
    cl::desc("libdevice bitcode that derivatives of CUDA device code may call "
             "(enzyme-clang sets it for device compilations)"),
    cl::init(""));

namespace enzyme {

bool isNativeDeviceMathIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sqrt:
  case Intrinsic::fabs:
  case Intrinsic::copysign:
  case Intrinsic::trunc:
    return true;
  default:
    return false;
  }
}

std::string deviceMathName(StringRef LibmName) {
  return ("__nv_" + LibmName).str();
}

StringRef libmNameOfDeviceFunction(StringRef Name) {
  if (!Name.consume_front("__nv_"))
    return "";
  // The approximate forms (-ffast-math) have the derivative of the exact.
  Name.consume_front("fast_");
  return Name;
}

void linkDeviceMathLibrary(Module &M) {
  if (!isCudaModule(M) || LibdevicePath.empty())
    return;
  // Each missing function, with a call to report an error at.
  MapVector<Function *, const Instruction *> Missing;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_"))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U)) {
          Missing.insert({&F, Call});
          break;
        }
  if (Missing.empty())
    return;

  const Instruction &First = *Missing.front().second;
  auto Fail = [&](const Instruction &At, const Twine &Why) {
    reportError(At, "device code calls '" +
                        cast<CallBase>(At).getCalledFunction()->getName() +
                        "', which the derivative needs from libdevice, but " +
                        Why + " (-enzyme-libdevice=" + LibdevicePath + ")");
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(LibdevicePath);
  if (!Buffer)
    return Fail(First,
                "libdevice cannot be read: " + Buffer.getError().message());
  Expected<std::unique_ptr<Module>> Library =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), M.getContext());
  if (!Library)
    return Fail(First, "libdevice is not valid bitcode: " +
                           toString(Library.takeError()));
  for (auto [F, At] : Missing) {
    Function *Definition = (*Library)->getFunction(F->getName());
    if (!Definition || Definition->isDeclaration())
      return Fail(*At, "libdevice does not define it");
  }
  // As clang links it: only what is needed, internalised, with this
  // module's target.
  (*Library)->setTargetTriple(M.getTargetTriple());
  (*Library)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(
          M, std::move(*Library), Linker::Flags::LinkOnlyNeeded,
          [](Module &Linked, const StringSet<> &Added) {
            internalizeModule(Linked, [&Added](const GlobalValue &GV) {
              return !GV.hasName() || !Added.count(GV.getName());
            });
          }))
    Fail(First, "libdevice cannot be linked");
}

/// Marks the libdevice functions kept from the inliner until AD is done.
static constexpr const char *KeptFromInliner = "enzyme-device-math";
static constexpr const char *WasInternal = "enzyme-device-math-internal";

void keepDeviceMathCallable(Module &M) {
  if (!isCudaModule(M))
    return;
  // Requests, or kernels that differentiated host code launches.
  bool AsksForDerivatives =
      anyDerivativeKernels() || any_of(M, [](const Function &F) {
        return F.isDeclaration() && F.getName().contains("__enzyme_") &&
               !F.use_empty();
      });
  if (!AsksForDerivatives)
    return;
  for (Function &F : M) {
    // Those whose calls a derivative rule answers.
    if (F.isDeclaration() || libmNameOfDeviceFunction(F.getName()).empty() ||
        !F.hasFnAttribute(Attribute::AlwaysInline) ||
        none_of(F.users(), [](const User *U) {
          const auto *Call = dyn_cast<CallBase>(U);
          return Call && rules::findMathRule(*Call);
        }))
      continue;
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    F.addFnAttr(KeptFromInliner);
    // Nor may interprocedural passes change an internal function's
    // signature (a constant exponent of pow folded into its body).
    if (F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::LinkOnceODRLinkage);
      F.addFnAttr(WasInternal);
    }
  }
}

bool isPureDeviceMath(const Function &F) {
  return F.hasFnAttribute(KeptFromInliner) &&
         none_of(F.args(),
                 [](const Argument &A) { return A.getType()->isPointerTy(); });
}

void finishDeviceMath(Module &M) {
  if (!isCudaModule(M))
    return;
  linkDeviceMathLibrary(M);
  SmallVector<Function *, 8> Inlinable;
  for (Function &F : M) {
    if (F.hasFnAttribute(InlinedAfterAD)) {
      F.removeFnAttr(InlinedAfterAD);
      Inlinable.push_back(&F);
      continue;
    }
    if (F.isDeclaration() || !F.getName().starts_with("__nv_"))
      continue;
    if (F.hasFnAttribute(KeptFromInliner)) {
      // A derivative's copy of the primal may leave a result unused. Once
      // inlined, the call's body could not be removed (its slow paths are
      // calls LLVM cannot prove return), so it goes now.
      if (isPureDeviceMath(F))
        for (User *U : make_early_inc_range(F.users()))
          if (auto *Call = dyn_cast<CallInst>(U);
              Call && Call->getCalledFunction() == &F && Call->use_empty())
            Call->eraseFromParent();
      F.removeFnAttr(KeptFromInliner);
      if (F.hasFnAttribute(WasInternal)) {
        F.removeFnAttr(WasInternal);
        F.setLinkage(GlobalValue::InternalLinkage);
      }
      F.removeFnAttr(Attribute::NoInline);
      F.addFnAttr(Attribute::AlwaysInline);
    }
    if (F.hasFnAttribute(Attribute::AlwaysInline))
      Inlinable.push_back(&F);
  }
  // The optimisation pipeline has no inliner after the engine's place.
  for (Function *F : Inlinable) {
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledFunction() == F)
        Calls.push_back(Call);
    for (CallBase *Call : Calls) {
      InlineFunctionInfo Info;
      InlineFunction(*Call, Info);
    }
    if (F->use_empty() && F->hasLocalLinkage())
      F->eraseFromParent();
  }
}

} // namespace enzyme
