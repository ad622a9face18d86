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
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

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
  // Arithmetic in a rounding mode (`__fmul_rz`, `__dadd_rn`) has the
  // derivative of the operation.
  static constexpr StringLiteral Rounded[] = {
      "fadd", "dadd", "fsub", "dsub",  "fmul",  "dmul", "fdiv",
      "ddiv", "frcp", "drcp", "fsqrt", "dsqrt", "fmaf", "fma", "fmaf_ieee"};
  for (StringRef Mode : {"_rn", "_rz", "_ru", "_rd"})
    if (Name.ends_with(Mode) && is_contained(Rounded, Name.drop_back(3))) {
      Name = Name.drop_back(3);
      break;
    }
  // CUDA's functions that libm does not have: rules of their own, named so
  // that no function of a program can be taken for them.
  return StringSwitch<StringRef>(Name)
      .Case("fadd", "enzyme.addf")
      .Case("dadd", "enzyme.add")
      .Case("fsub", "enzyme.subf")
      .Case("dsub", "enzyme.sub")
      .Case("fmul", "enzyme.mulf")
      .Case("dmul", "enzyme.mul")
      .Cases("fdiv", "fdividef", "enzyme.divf")
      .Case("ddiv", "enzyme.div")
      .Case("frcp", "enzyme.rcpf")
      .Case("drcp", "enzyme.rcp")
      .Case("fmaf_ieee", "fmaf") // No flush of subnormals to zero.
      .Case("fsqrt", "sqrtf")
      .Case("dsqrt", "sqrt")
      .Case("saturatef", "enzyme.saturatef")
      .Case("rsqrtf", "enzyme.rsqrtf")
      .Case("rsqrt", "enzyme.rsqrt")
      .Case("rcbrtf", "enzyme.rcbrtf")
      .Case("rcbrt", "enzyme.rcbrt")
      .Case("rhypotf", "enzyme.rhypotf")
      .Case("rhypot", "enzyme.rhypot")
      .Case("sinpif", "enzyme.sinpif")
      .Case("sinpi", "enzyme.sinpi")
      .Case("cospif", "enzyme.cospif")
      .Case("cospi", "enzyme.cospi")
      .Case("normcdff", "enzyme.normcdff")
      .Case("normcdf", "enzyme.normcdf")
      .Case("normcdfinvf", "enzyme.normcdfinvf")
      .Case("normcdfinv", "enzyme.normcdfinv")
      .Case("erfinvf", "enzyme.erfinvf")
      .Case("erfinv", "enzyme.erfinv")
      .Case("erfcinvf", "enzyme.erfcinvf")
      .Case("erfcinv", "enzyme.erfcinv")
      .Default(Name);
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

/// libdevice's sin and cos of one value, and the function computing both
/// with one argument reduction.
struct SinCosPair {
  const char *Sin, *Cos, *SinCos;
};
static constexpr SinCosPair SinCosPairs[] = {
    {"__nv_sin", "__nv_cos", "__nv_sincos"},
    {"__nv_sinf", "__nv_cosf", "__nv_sincosf"},
    {"__nv_fast_sinf", "__nv_fast_cosf", "__nv_fast_sincosf"},
};

static bool calls(const CallInst &Call, StringRef Name) {
  return Call.getCalledFunction()->getName() == Name;
}

/// Replaces the sin and cos of \p X (one of the calls dominates the other)
/// by one call of libdevice's sincos, whose results go through two stack
/// slots that are promoted once its body is inlined.
static void fuseSinCos(CallInst &Sin, CallInst &Cos, const SinCosPair &Names,
                       const DominatorTree &DT,
                       SmallVectorImpl<AllocaInst *> &Slots) {
  CallInst &First = DT.dominates(&Sin, &Cos) ? Sin : Cos;
  Function &F = *First.getFunction();
  Module &M = *F.getParent();
  Value *X = First.getArgOperand(0);
  Type *Ty = X->getType();
  PointerType *Generic = PointerType::get(M.getContext(), 0);
  FunctionCallee SinCos = M.getOrInsertFunction(
      Names.SinCos, FunctionType::get(Type::getVoidTy(M.getContext()),
                                      {Ty, Generic, Generic}, false));
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  unsigned AllocaSpace = M.getDataLayout().getAllocaAddrSpace();
  AllocaInst *SinSlot = Entry.CreateAlloca(Ty, AllocaSpace, nullptr);
  AllocaInst *CosSlot = Entry.CreateAlloca(Ty, AllocaSpace, nullptr);
  IRBuilder<> B(&First);
  B.CreateCall(SinCos,
               {X, B.CreatePointerBitCastOrAddrSpaceCast(SinSlot, Generic),
                B.CreatePointerBitCastOrAddrSpaceCast(CosSlot, Generic)});
  Sin.replaceAllUsesWith(B.CreateLoad(Ty, SinSlot));
  Cos.replaceAllUsesWith(B.CreateLoad(Ty, CosSlot));
  Sin.eraseFromParent();
  Cos.eraseFromParent();
  Slots.append({SinSlot, CosSlot});
}

/// A reverse pass recomputes the primal's math next to the math of its
/// derivatives: cos(x) in the primal and -sin(x) in its derivative beside
/// the primal's own sin(x). While they are still calls (once inlined, their
/// slow paths hide that they compute the same), one call answers for every
/// identical call it dominates, and the sin and cos of one value share a
/// sincos when \p CanAddSinCos (libdevice will be linked).
static void shareDeviceMath(Function &F, bool CanAddSinCos,
                            SmallVectorImpl<AllocaInst *> &Slots) {
  SmallVector<CallInst *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && isPureDeviceMath(*Callee))
        Calls.push_back(Call);
  if (Calls.size() < 2)
    return;
  DominatorTree DT(F);
  auto Same = [](const CallInst *A, const CallInst *B) {
    return A->getCalledFunction() == B->getCalledFunction() &&
           equal(A->args(), B->args());
  };
  SmallVector<CallInst *, 16> Kept;
  for (CallInst *Call : Calls) {
    auto Dominating = find_if(Kept, [&](CallInst *K) {
      return Same(K, Call) && DT.dominates(K, Call);
    });
    if (Dominating != Kept.end()) {
      Call->replaceAllUsesWith(*Dominating);
      Call->eraseFromParent();
      continue;
    }
    // Blocks are not laid out in dominance order.
    erase_if(Kept, [&](CallInst *K) {
      if (!Same(K, Call) || !DT.dominates(Call, K))
        return false;
      K->replaceAllUsesWith(Call);
      K->eraseFromParent();
      return true;
    });
    Kept.push_back(Call);
  }
  if (!CanAddSinCos)
    return;
  for (const SinCosPair &Names : SinCosPairs)
    for (CallInst *&Sin : Kept) {
      if (!Sin || !calls(*Sin, Names.Sin))
        continue;
      auto Cos = find_if(Kept, [&](CallInst *C) {
        return C && calls(*C, Names.Cos) &&
               C->getArgOperand(0) == Sin->getArgOperand(0) &&
               (DT.dominates(C, Sin) || DT.dominates(Sin, C));
      });
      if (Cos == Kept.end())
        continue;
      fuseSinCos(*Sin, **Cos, Names, DT, Slots);
      Sin = *Cos = nullptr;
    }
}

void finishDeviceMath(Module &M,
                      function_ref<bool(const Function &)> SharesMath) {
  if (!isCudaModule(M))
    return;
  // A derivative's copy of the primal may leave a result unused. Once
  // inlined, the call's body could not be removed (its slow paths are calls
  // LLVM cannot prove return), so it goes now.
  for (Function &F : M)
    if (isPureDeviceMath(F))
      for (User *U : make_early_inc_range(F.users()))
        if (auto *Call = dyn_cast<CallInst>(U);
            Call && Call->getCalledFunction() == &F && Call->use_empty())
          Call->eraseFromParent();
  SmallVector<AllocaInst *, 8> SinCosSlots;
  for (Function &F : M)
    if (!F.isDeclaration() && SharesMath && SharesMath(F))
      shareDeviceMath(F, !LibdevicePath.empty(), SinCosSlots);
  linkDeviceMathLibrary(M);
  // The optimisation pipeline has no inliner after the engine's place.
  auto InlineCalls = [](Function *F) {
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
  };
  SmallVector<Function *, 8> DeviceMath, AfterAD;
  for (Function &F : M) {
    if (F.hasFnAttribute(InlinedAfterAD)) {
      F.removeFnAttr(InlinedAfterAD);
      AfterAD.push_back(&F);
      continue;
    }
    if (F.isDeclaration() || !F.getName().starts_with("__nv_"))
      continue;
    if (F.hasFnAttribute(KeptFromInliner)) {
      F.removeFnAttr(KeptFromInliner);
      if (F.hasFnAttribute(WasInternal)) {
        F.removeFnAttr(WasInternal);
        F.setLinkage(GlobalValue::InternalLinkage);
      }
      F.removeFnAttr(Attribute::NoInline);
      F.addFnAttr(Attribute::AlwaysInline);
    }
    if (F.hasFnAttribute(Attribute::AlwaysInline))
      DeviceMath.push_back(&F);
  }
  for (Function *F : DeviceMath)
    InlineCalls(F);
  // The sincos results, stored by the inlined bodies, back into registers
  // (device stack slots are slow local memory), before the functions that
  // hold them are inlined in turn.
  MapVector<Function *, SmallVector<AllocaInst *, 4>> SlotsByFunction;
  for (AllocaInst *Slot : SinCosSlots)
    if (isAllocaPromotable(Slot))
      SlotsByFunction[Slot->getFunction()].push_back(Slot);
  for (auto &[F, Slots] : SlotsByFunction) {
    DominatorTree DT(*F);
    PromoteMemToReg(Slots, DT);
  }
  for (Function *F : AfterAD)
    InlineCalls(F);
}

} // namespace enzyme
