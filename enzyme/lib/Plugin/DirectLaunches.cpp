//===- DirectLaunches.cpp - Launch calls as the stub calls they stand for -===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The engine differentiates a launch at the call of the kernel's host stub,
/// which has a custom derivative (LaunchGradients.cpp): the call that
/// `kernel<<<grid, block, shared, stream>>>(args)` makes after pushing the
/// configuration. Host code may launch through the runtime API instead:
///
///  - `cudaLaunchKernel(kernel, grid, block, args, shared, stream)`, or the
///    runtime header's C++ template around it, becomes that push and call;
///    `cudaLaunchCooperativeKernel` too, its push made by the run-time with
///    the cooperative attribute (as for cudaLaunchKernelExC, below);
///  - `cudaLaunchKernelExC(config, kernel, args)` too, with the push made by
///    the run-time (`__enzyme_rt_cuda_push_launch`), which keeps the launch
///    attributes (clusters, priority, programmatic launch, events) for the
///    stub's launch and the derivative kernels' launches
///    (runtime/CudaLaunch.c); the stub launches through the run-time so
///    that the primal launch keeps them too;
///  - the C++ template `cudaLaunchKernelEx(config, kernel, args...)`, which
///    unoptimised code calls, converts the arguments to the kernel's
///    parameter types and hands them to a lambda that calls
///    cudaLaunchKernelExC: a copy of the template for the kernel makes the
///    push and calls the stub with the converted arguments in the lambda's
///    place.
///
/// Each rewrite launches what the call launched, with the same error.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"
#include "Plugin/StubParameters.h"

#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace enzyme {

namespace {

/// The runtime API calls that launch a kernel.
enum class LaunchCall {
  /// cudaLaunchKernel or its template: (kernel, grid, block, args, shared,
  /// stream).
  Launch,
  /// cudaLaunchCooperativeKernel or its template, with the same operands.
  CooperativeLaunch,
  /// cudaLaunchKernelExC(config, kernel, args).
  LaunchEx,
  /// The template cudaLaunchKernelEx(config, kernel, args...).
  LaunchExTemplate,
};

} // namespace

/// \p Callee demangles to the runtime header's template \p Template (a
/// template's demangled name begins with its return type).
static bool isRuntimeTemplate(const Function &Callee, StringRef Template) {
  if (Callee.isDeclaration())
    return false;
  std::string Name = displayName(Callee.getName());
  std::string Prefix = (Template + "<").str();
  return StringRef(Name).starts_with(Prefix) ||
         StringRef(Name).contains(" " + Prefix);
}

static std::optional<LaunchCall> classifyLaunchCall(const Function &Callee) {
  if (Callee.arg_size() == 8 && (Callee.getName() == "cudaLaunchKernel" ||
                                 isRuntimeTemplate(Callee, "cudaLaunchKernel")))
    return LaunchCall::Launch;
  if (Callee.arg_size() == 8 &&
      (Callee.getName() == "cudaLaunchCooperativeKernel" ||
       isRuntimeTemplate(Callee, "cudaLaunchCooperativeKernel")))
    return LaunchCall::CooperativeLaunch;
  if (Callee.arg_size() == 3 && Callee.getName() == "cudaLaunchKernelExC")
    return LaunchCall::LaunchEx;
  if (Callee.arg_size() >= 2 && isRuntimeTemplate(Callee, "cudaLaunchKernelEx"))
    return LaunchCall::LaunchExTemplate;
  return std::nullopt;
}

/// The operand of a \p Kind call that names the kernel (its host stub).
static unsigned kernelOperand(LaunchCall Kind) {
  return Kind == LaunchCall::Launch || Kind == LaunchCall::CooperativeLaunch
             ? 0
             : 1;
}

/// The stub that operand \p Operand of \p Call names, if it has a
/// derivative.
static Function *launchedStub(const CallBase &Call, unsigned Operand) {
  auto *Stub =
      dyn_cast<Function>(Call.getArgOperand(Operand)->stripPointerCasts());
  const Module &M = *Call.getModule();
  if (!Stub)
    return nullptr;
  for (StringRef Kind : {"register_gradient", "register_derivative"})
    if (M.getNamedGlobal(registrationName(Kind, *Stub)))
      return Stub;
  return nullptr;
}

/// Calls \p Stub with \p Args in place of \p Launch, after \p Push has
/// pushed the configuration; the launch's error is the one the runtime
/// records for it.
static void callStubInPlaceOf(CallInst &Launch, Function &Stub,
                              ArrayRef<Value *> Args,
                              function_ref<void(IRBuilder<> &)> Push) {
  IRBuilder<> B(&Launch);
  Push(B);
  B.CreateCall(&Stub, Args)->setDebugLoc(Launch.getDebugLoc());
  Value *Error = B.CreateCall(Launch.getModule()->getOrInsertFunction(
      "cudaPeekAtLastError", B.getInt32Ty()));
  Launch.replaceAllUsesWith(Error);
  Launch.eraseFromParent();
}

/// \p Stub's arguments, read from \p Array, the array of pointers to the
/// kernel's parameters that a launch takes, as \p Params lays them out: a
/// kernel parameter may be several stub parameters (a struct the host ABI
/// splits), one the stub takes by address, or none (an empty class).
/// Nullopt where the stub does not pass its kernel's parameters in a way
/// the toolchain knows.
static std::optional<SmallVector<Value *, 8>>
argumentsFromArray(IRBuilder<> &B, Function &Stub, Value *Array) {
  std::optional<SmallVector<StubParameter, 8>> Params =
      readStubParameters(Stub);
  if (!Params)
    return std::nullopt;
  SmallVector<Value *, 8> Args(Stub.arg_size(), nullptr);
  for (auto [Index, P] : enumerate(*Params)) {
    Value *Memory = B.CreateLoad(
        B.getPtrTy(), B.CreateConstInBoundsGEP1_64(B.getPtrTy(), Array, Index));
    if (P.ByValue) {
      Args[*P.ByValue] = Memory;
      continue;
    }
    for (const StubPiece &Piece : P.Pieces)
      Args[Piece.StubParam] = B.CreateLoad(
          Stub.getArg(Piece.StubParam)->getType(),
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Memory, Piece.Offset));
  }
  if (is_contained(Args, nullptr))
    return std::nullopt;
  return Args;
}

/// Pushes the configuration that \p Config points to (a cudaLaunchConfig_t)
/// and its attributes.
static void pushLaunchConfig(IRBuilder<> &B, Value *Config) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_cuda_push_launch"), Config);
}

/// \p Stub launches through the run-time, which adds the attributes of the
/// cudaLaunchKernelEx that called it (runtime/CudaLaunch.c). False if its
/// launch is not the runtime's cudaLaunchKernel.
static bool launchWithAttributes(Function &Stub) {
  Module &M = *Stub.getParent();
  Function *Runtime = getRuntimeFunction(M, "__enzyme_rt_cuda_stub_launch");
  bool Found = false;
  for (Instruction &I : instructions(Stub)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee == Runtime)
      return true;
    if (!Callee || Callee->getName() != "cudaLaunchKernel")
      continue;
    if (Call->getFunctionType() != Runtime->getFunctionType())
      return false;
    Call->setCalledFunction(Runtime);
    Found = true;
  }
  return Found;
}

/// What a host stub does in a way the toolchain does not know.
static constexpr const char *StubLaunchesOtherwise =
    "its host stub does not launch it with cudaLaunchKernel, through which "
    "the toolchain passes the launch's attributes; launch it with <<<...>>> "
    "instead";
static constexpr const char *StubPassesOtherwise =
    "its host stub does not pass the kernel's parameters in a way the "
    "toolchain knows (pointers, integers, float, double and structs of them)";

/// The error for a launch \p Call of \p Stub through \p Api that cannot be
/// differentiated because of what its stub does (\p Why).
static void reportUnknownStub(const CallInst &Call, const Function &Stub,
                              StringRef Api, StringRef Why) {
  reportError(Call, "cannot differentiate the " + Api + " launch of '" +
                        displayName(Stub.getName()) + "': " + Why);
}

/// `cudaLaunchKernel(stub, grid, block, args, shared, stream)` as
/// `<<<grid, block, shared, stream>>>` writes it; a cooperative launch
/// pushes the cooperative attribute with its configuration.
static void lowerLaunch(CallInst &Call, Function &Stub, bool Cooperative) {
  if (Cooperative && !launchWithAttributes(Stub))
    return reportUnknownStub(Call, Stub, "cudaLaunchCooperativeKernel",
                             StubLaunchesOtherwise);
  IRBuilder<> B(&Call);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  FunctionType *PushType = FunctionType::get(
      Cooperative ? B.getVoidTy() : I32, {I64, I32, I64, I32, I64, Ptr}, false);
  Module &M = *Call.getModule();
  FunctionCallee Push =
      Cooperative
          ? FunctionCallee(getRuntimeFunction(
                M, "__enzyme_rt_cuda_push_cooperative_launch"))
          : M.getOrInsertFunction("__cudaPushCallConfiguration", PushType);
  if (Push.getFunctionType() != PushType)
    return reportUnknownStub(Call, Stub, "cudaLaunchCooperativeKernel",
                             StubLaunchesOtherwise);
  std::optional<SmallVector<Value *, 8>> Args =
      argumentsFromArray(B, Stub, Call.getArgOperand(5));
  if (!Args)
    return reportUnknownStub(Call, Stub, "cudaLaunchKernel",
                             StubPassesOtherwise);
  callStubInPlaceOf(Call, Stub, *Args, [&](IRBuilder<> &PB) {
    PB.CreateCall(Push, {Call.getArgOperand(1), Call.getArgOperand(2),
                         Call.getArgOperand(3), Call.getArgOperand(4),
                         Call.getArgOperand(6), Call.getArgOperand(7)});
  });
}

/// `cudaLaunchKernelExC(config, stub, args)`.
static void lowerLaunchEx(CallInst &Call, Function &Stub) {
  if (!launchWithAttributes(Stub))
    return reportUnknownStub(Call, Stub, "cudaLaunchKernelEx",
                             StubLaunchesOtherwise);
  IRBuilder<> B(&Call);
  std::optional<SmallVector<Value *, 8>> Args =
      argumentsFromArray(B, Stub, Call.getArgOperand(2));
  if (!Args)
    return reportUnknownStub(Call, Stub, "cudaLaunchKernelEx",
                             StubPassesOtherwise);
  callStubInPlaceOf(Call, Stub, *Args, [&](IRBuilder<> &PB) {
    pushLaunchConfig(PB, Call.getArgOperand(0));
  });
}

/// \p F is a lambda's call operator (LLVM's demangler names a lambda
/// `'lambda'(...)`, others `{lambda(...)#1}`).
static bool isLambda(const Function &F) {
  std::string Name = displayName(F.getName());
  return StringRef(Name).contains("'lambda") ||
         StringRef(Name).contains("{lambda");
}

/// In \p Copy, the template cudaLaunchKernelEx specialised for \p Stub: the
/// call of its lambda, whose arguments after the closure are the kernel's
/// arguments converted to its parameter types. An invoke of it (arguments
/// with destructors, as CUB's kernel_arg at -O0) becomes a call: the launch
/// in its place does not throw.
static CallInst *lambdaCall(Function &Copy, const Function &Stub) {
  for (Instruction &I : instructions(Copy)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Call->arg_size() != Stub.arg_size() + 1 ||
        !isRuntimeTemplate(*Callee, "cudaLaunchKernelEx") || !isLambda(*Callee))
      continue;
    bool Matches = all_of(Stub.args(), [&](const Argument &Param) {
      return Call->getArgOperand(Param.getArgNo() + 1)->getType() ==
             Param.getType();
    });
    if (!Matches)
      continue;
    if (auto *Invoke = dyn_cast<InvokeInst>(Call))
      return changeToCall(Invoke);
    return cast<CallInst>(Call);
  }
  return nullptr;
}

/// `cudaLaunchKernelEx(config, stub, args...)`, the template: calls a copy
/// of it for \p Stub (one per template and stub) whose lambda call is the
/// push and the stub's call. False if the template is not as the runtime
/// header writes it.
static bool lowerLaunchExTemplate(CallInst &Call, Function &Stub) {
  Function &Template = *Call.getCalledFunction();
  Module &M = *Call.getModule();
  if (!kernelNameOfStub(Stub.getName()))
    return false;
  std::string Name = copyNameFor(Template.getName(), "launch", Stub.getName());
  Function *Copy = M.getFunction(Name);
  if (!Copy) {
    ValueToValueMapTy Map;
    Map[Template.getArg(1)] = &Stub; // the copy has no kernel parameter
    Copy = CloneFunction(&Template, Map);
    Copy->setName(Name);
    Copy->setLinkage(GlobalValue::InternalLinkage);
    CallInst *Lambda = lambdaCall(*Copy, Stub);
    if (!Lambda) {
      Copy->eraseFromParent();
      return false;
    }
    SmallVector<Value *, 8> Args(drop_begin(Lambda->args()));
    callStubInPlaceOf(*Lambda, Stub, Args, [&](IRBuilder<> &B) {
      pushLaunchConfig(B, Copy->getArg(0));
    });
  }
  if (!launchWithAttributes(Stub)) {
    reportUnknownStub(Call, Stub, "cudaLaunchKernelEx", StubLaunchesOtherwise);
    return true;
  }
  SmallVector<Value *, 8> Args;
  for (unsigned A = 0; A < Call.arg_size(); ++A)
    if (A != 1)
      Args.push_back(Call.getArgOperand(A));
  CallInst *Replacement = CallInst::Create(Copy, Args, "", Call.getIterator());
  Replacement->setDebugLoc(Call.getDebugLoc());
  Call.replaceAllUsesWith(Replacement);
  Call.eraseFromParent();
  return true;
}

void lowerDirectLaunches(Module &M, ArrayRef<Function *> Reached) {
  if (isGpuModule(M))
    return;
  struct Launch {
    CallInst *Call;
    LaunchCall Kind;
    Function *Stub;
  };
  SmallVector<Launch, 4> Launches;
  for (Function *F : Reached)
    for (Instruction &I : instructions(*F)) {
      auto *Call = dyn_cast<CallInst>(&I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      std::optional<LaunchCall> Kind =
          Callee ? classifyLaunchCall(*Callee) : std::nullopt;
      if (!Kind)
        continue;
      if (Function *Stub = launchedStub(*Call, kernelOperand(*Kind)))
        Launches.push_back({Call, *Kind, Stub});
    }
  for (const Launch &L : Launches) {
    switch (L.Kind) {
    case LaunchCall::Launch:
    case LaunchCall::CooperativeLaunch:
      lowerLaunch(*L.Call, *L.Stub, L.Kind == LaunchCall::CooperativeLaunch);
      break;
    case LaunchCall::LaunchEx:
      lowerLaunchEx(*L.Call, *L.Stub);
      break;
    case LaunchCall::LaunchExTemplate:
      // A template the toolchain does not know stays a call the engine
      // reports.
      lowerLaunchExTemplate(*L.Call, *L.Stub);
      break;
    }
  }
}

} // namespace enzyme
