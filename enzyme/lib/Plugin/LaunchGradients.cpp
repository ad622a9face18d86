//===- LaunchGradients.cpp - Custom gradients of kernel stubs -------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host half of differentiating host code that launches kernels
/// (Core/KernelLaunches.h). `kernel<<<grid, block>>>(args)` pushes the
/// launch's configuration and calls the kernel's host stub, which pops it
/// and launches. The stub of each listed kernel gets a custom gradient
/// (UserRegistrations.h) written here: its augmented function launches the
/// augmented kernel with the popped configuration, its reverse function the
/// reverse kernel with the same one (runtime/CudaLaunch.c). A kernel on the
/// tangent list gets a custom forward derivative that launches its tangent
/// kernel. The engine differentiates the host code around the stubs as
/// usual. The derivative kernels and their info are registered with the
/// CUDA runtime beside the file's own kernels, in `__cuda_register_globals`.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"

#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

static constexpr StringLiteral RegisterGlobals = "__cuda_register_globals";

namespace {
/// One kernel of this file's device code, as the host sees it.
struct HostKernel {
  Function *Stub;
  std::string DeviceName;
  /// The fat binary's handle, as __cuda_register_globals has it.
  Value *Binary;
};

/// Builds the custom gradient of one stub.
class LaunchGradientBuilder {
public:
  LaunchGradientBuilder(Module &M, const HostKernel &Kernel)
      : M(M), Ctx(M.getContext()), K(Kernel), Stub(*Kernel.Stub),
        Ptr(PointerType::getUnqual(Ctx)) {}
  void build(Instruction &RegistrationEnd);

private:
  Module &M;
  LLVMContext &Ctx;
  const HostKernel &K;
  Function &Stub;
  PointerType *Ptr;

  /// The parameters that carry a shadow in the custom derivatives' ABI:
  /// pointers, and in forward mode floating-point values (their tangents).
  static bool hasShadow(Type *T, bool Forward) {
    return T->isPointerTy() || (Forward && T->isFloatingPointTy());
  }
  Function *createHalf(StringRef Suffix, Type *RetTy, ArrayRef<Type *> Extra,
                       bool Forward = false);
  GlobalVariable *createHandle(const Twine &Name);
  Value *argumentArray(IRBuilder<> &B, Function &Half, unsigned Room,
                       unsigned &Count, bool Forward = false);
  Value *shadowArray(IRBuilder<> &B, Function &Half, bool Forward);
  /// Registers the kernel \p DeviceName with the CUDA runtime under a new
  /// host handle, which it returns.
  GlobalVariable *registerKernel(IRBuilder<> &B, const std::string &DeviceName,
                                 const Twine &HandleName);
  /// Registers the device variable \p DeviceName that describes a
  /// derivative kernel; \p Symbol gets its host twin, \p Info the host's
  /// copy of it.
  void registerInfo(IRBuilder<> &B, const std::string &DeviceName,
                    const Twine &HostName, GlobalVariable *&Symbol,
                    GlobalVariable *&Info);
  Function *createAugment(GlobalVariable *Handle, GlobalVariable *Info,
                          GlobalVariable *Symbol);
  Function *createReverse(GlobalVariable *Handle);
  Function *createForward(GlobalVariable *Handle, GlobalVariable *Info,
                          GlobalVariable *Symbol);
};
} // namespace

/// `f(params)` -> `half(params with each pointer followed by its shadow,
/// Extra)`, the custom-gradient ABI; in the custom-derivative ABI
/// (\p Forward), each float is followed by its tangent too.
Function *LaunchGradientBuilder::createHalf(StringRef Suffix, Type *RetTy,
                                            ArrayRef<Type *> Extra,
                                            bool Forward) {
  SmallVector<Type *, 8> Params;
  for (Type *T : Stub.getFunctionType()->params()) {
    Params.push_back(T);
    if (hasShadow(T, Forward))
      Params.push_back(T);
  }
  Params.append(Extra.begin(), Extra.end());
  auto *F = Function::Create(FunctionType::get(RetTy, Params, false),
                             GlobalValue::InternalLinkage,
                             Stub.getName() + Suffix, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr("enzyme_inactive");
  return F;
}

/// The host handle of a derivative kernel: an address of its own, which
/// the runtime maps to the kernel's device name.
GlobalVariable *LaunchGradientBuilder::createHandle(const Twine &Name) {
  return new GlobalVariable(M, Type::getInt8Ty(Ctx), /*isConstant=*/false,
                            GlobalValue::InternalLinkage,
                            ConstantInt::get(Type::getInt8Ty(Ctx), 0), Name);
}

/// The kernel arguments of \p Half in memory, as cudaLaunchKernel takes
/// them: the stub's parameters, then the shadows of its pointers (and in
/// forward mode the tangents of its floats), then \p Room slots the runtime
/// fills. \p Count: the arguments before them.
Value *LaunchGradientBuilder::argumentArray(IRBuilder<> &B, Function &Half,
                                            unsigned Room, unsigned &Count,
                                            bool Forward) {
  SmallVector<Value *, 8> Values, Shadows;
  unsigned Next = 0;
  for (Type *T : Stub.getFunctionType()->params()) {
    Values.push_back(Half.getArg(Next++));
    if (hasShadow(T, Forward))
      Shadows.push_back(Half.getArg(Next++));
  }
  Values.append(Shadows.begin(), Shadows.end());
  Count = Values.size();
  auto *ArrayTy = ArrayType::get(Ptr, Count + Room);
  Value *Array = B.CreateAlloca(ArrayTy, nullptr, "kernel.args");
  for (auto [I, V] : enumerate(Values)) {
    Value *Slot = B.CreateAlloca(V->getType());
    B.CreateStore(V, Slot);
    B.CreateStore(Slot, B.CreateConstInBoundsGEP2_32(ArrayTy, Array, 0, I));
  }
  return Array;
}

/// Per parameter of the stub, the shadow \p Half has for it or null (for
/// the runtime's check of the shadows the kernel's derivative uses).
Value *LaunchGradientBuilder::shadowArray(IRBuilder<> &B, Function &Half,
                                          bool Forward) {
  unsigned NumParams = Stub.arg_size();
  auto *ShadowsTy = ArrayType::get(Ptr, NumParams);
  Value *Shadows = B.CreateAlloca(ShadowsTy, nullptr, "shadows");
  unsigned Next = 0;
  for (unsigned I = 0; I < NumParams; ++I) {
    Type *T = Stub.getArg(I)->getType();
    Next += 1;
    Value *Shadow = T->isPointerTy()
                        ? Half.getArg(Next)
                        : static_cast<Value *>(Constant::getNullValue(Ptr));
    if (hasShadow(T, Forward))
      ++Next;
    B.CreateStore(Shadow,
                  B.CreateConstInBoundsGEP2_32(ShadowsTy, Shadows, 0, I));
  }
  return Shadows;
}

Function *LaunchGradientBuilder::createAugment(GlobalVariable *Handle,
                                               GlobalVariable *Info,
                                               GlobalVariable *Symbol) {
  Function *F = createHalf(".enzyme.augment", Ptr, {});
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  unsigned Count;
  Value *Args = argumentArray(B, *F, /*Room=*/1, Count);
  Value *Shadows = shadowArray(B, *F, /*Forward=*/false);
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_augment_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  Value *Record =
      B.CreateCall(Launch, {Handle, Name, Info, Symbol, Args, B.getInt32(Count),
                            Shadows, B.getInt32(Stub.arg_size())});
  B.CreateRet(Record);
  return F;
}

Function *LaunchGradientBuilder::createForward(GlobalVariable *Handle,
                                               GlobalVariable *Info,
                                               GlobalVariable *Symbol) {
  Function *F = createHalf(".enzyme.forward", Type::getVoidTy(Ctx), {},
                           /*Forward=*/true);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  unsigned Count;
  Value *Args = argumentArray(B, *F, /*Room=*/0, Count, /*Forward=*/true);
  Value *Shadows = shadowArray(B, *F, /*Forward=*/true);
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_tangent_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  B.CreateCall(Launch, {Handle, Name, Info, Symbol, Args, Shadows,
                        B.getInt32(Stub.arg_size())});
  B.CreateRetVoid();
  return F;
}

Function *LaunchGradientBuilder::createReverse(GlobalVariable *Handle) {
  SmallVector<Type *, 4> Scalars;
  for (Type *T : Stub.getFunctionType()->params())
    if (T->isFloatingPointTy())
      Scalars.push_back(T);
  // One gradient per float parameter: alone, or a struct of them.
  Type *RetTy = Scalars.empty()       ? Type::getVoidTy(Ctx)
                : Scalars.size() == 1 ? Scalars.front()
                                      : StructType::get(Ctx, Scalars);
  Function *F = createHalf(".enzyme.reverse", RetTy, {Ptr});
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  unsigned Count;
  Value *Args = argumentArray(B, *F, /*Room=*/2, Count);
  // The sums come back as doubles (Core/KernelLaunches.h).
  auto *AdjointsTy = ArrayType::get(B.getDoubleTy(), Scalars.size());
  Value *Adjoints = B.CreateAlloca(AdjointsTy, nullptr, "adjoints");
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_reverse_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  B.CreateCall(Launch, {Handle, Name, F->getArg(F->arg_size() - 1), Args,
                        B.getInt32(Count), Adjoints, B.getInt32(Scalars.size()),
                        B.getInt32(ScalarAdjointReplicas)});
  SmallVector<Value *, 4> Gradients;
  for (auto [I, T] : enumerate(Scalars))
    Gradients.push_back(B.CreateFPTrunc(
        B.CreateLoad(B.getDoubleTy(),
                     B.CreateConstInBoundsGEP2_32(AdjointsTy, Adjoints, 0, I)),
        T));
  if (Scalars.empty())
    B.CreateRetVoid();
  else if (Scalars.size() == 1)
    B.CreateRet(Gradients.front());
  else {
    Value *Result = PoisonValue::get(RetTy);
    for (auto [I, G] : enumerate(Gradients))
      Result = B.CreateInsertValue(Result, G, I);
    B.CreateRet(Result);
  }
  return F;
}

GlobalVariable *LaunchGradientBuilder::registerKernel(
    IRBuilder<> &B, const std::string &DeviceName, const Twine &HandleName) {
  GlobalVariable *Handle = createHandle(HandleName);
  Type *I32 = B.getInt32Ty();
  FunctionCallee RegisterFunction =
      M.getOrInsertFunction("__cudaRegisterFunction", B.getVoidTy(), Ptr, Ptr,
                            Ptr, Ptr, I32, Ptr, Ptr, Ptr, Ptr, Ptr);
  Constant *Null = Constant::getNullValue(Ptr);
  Value *Str = B.CreateGlobalString(DeviceName, Handle->getName() + ".name");
  B.CreateCall(RegisterFunction, {K.Binary, Handle, Str, Str, B.getInt32(-1),
                                  Null, Null, Null, Null, Null});
  return Handle;
}

void LaunchGradientBuilder::registerInfo(IRBuilder<> &B,
                                         const std::string &DeviceName,
                                         const Twine &HostName,
                                         GlobalVariable *&Symbol,
                                         GlobalVariable *&Info) {
  // The device variable's host twin, which names it to the runtime, and
  // the copy of its value the runtime reads once.
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  auto *SymbolTy = ArrayType::get(I64, 2);
  Symbol = new GlobalVariable(M, SymbolTy, false, GlobalValue::InternalLinkage,
                              Constant::getNullValue(SymbolTy),
                              HostName + ".symbol");
  auto *InfoTy = StructType::get(I64, I64, I32);
  Info = new GlobalVariable(M, InfoTy, false, GlobalValue::InternalLinkage,
                            Constant::getNullValue(InfoTy), HostName);
  FunctionCallee RegisterVar =
      M.getOrInsertFunction("__cudaRegisterVar", B.getVoidTy(), Ptr, Ptr, Ptr,
                            Ptr, I32, I64, I32, I32);
  Value *Str = B.CreateGlobalString(DeviceName, HostName + ".name");
  B.CreateCall(RegisterVar, {K.Binary, Symbol, Str, Str, B.getInt32(0),
                             B.getInt64(16), B.getInt32(0), B.getInt32(0)});
}

void LaunchGradientBuilder::build(Instruction &RegistrationEnd) {
  // Host-side names stay clear of `__enzyme_`, which registrations use.
  std::string Prefix = "enzyme.launch." + K.DeviceName;
  IRBuilder<> B(&RegistrationEnd);
  if (isDerivativeKernel(K.DeviceName) &&
      !M.getNamedGlobal(registrationName("register_gradient", Stub))) {
    GlobalVariable *AugHandle = registerKernel(
        B, augmentedKernelName(K.DeviceName), Prefix + ".augmented");
    GlobalVariable *RevHandle =
        registerKernel(B, reverseKernelName(K.DeviceName), Prefix + ".reverse");
    GlobalVariable *Symbol, *Info;
    registerInfo(B, kernelInfoName(K.DeviceName), Prefix + ".info", Symbol,
                 Info);
    addRegistration(
        M, "register_gradient", Stub,
        {createAugment(AugHandle, Info, Symbol), createReverse(RevHandle)});
  }
  if (isTangentKernel(K.DeviceName) &&
      !M.getNamedGlobal(registrationName("register_derivative", Stub))) {
    GlobalVariable *Handle =
        registerKernel(B, tangentKernelName(K.DeviceName), Prefix + ".tangent");
    GlobalVariable *Symbol, *Info;
    registerInfo(B, tangentKernelInfoName(K.DeviceName),
                 Prefix + ".tangent.info", Symbol, Info);
    addRegistration(M, "register_derivative", Stub,
                    {createForward(Handle, Info, Symbol)});
  }
}

/// The kernels that \p Register registers, which the driver listed.
static SmallVector<HostKernel, 4> listedKernels(Function &Register) {
  SmallVector<HostKernel, 4> Kernels;
  for (Instruction &I : instructions(Register)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->getName() != "__cudaRegisterFunction" ||
        Call->arg_size() < 3)
      continue;
    auto *Stub =
        dyn_cast<Function>(Call->getArgOperand(1)->stripPointerCasts());
    auto *Name =
        dyn_cast<GlobalVariable>(Call->getArgOperand(2)->stripPointerCasts());
    auto *Init = Name && Name->hasInitializer()
                     ? dyn_cast<ConstantDataSequential>(Name->getInitializer())
                     : nullptr;
    if (!Stub || Stub->isDeclaration() || !Init || !Init->isCString())
      continue;
    StringRef DeviceName = Init->getAsCString();
    if ((!isDerivativeKernel(DeviceName) && !isTangentKernel(DeviceName)) ||
        unsupportedKernelParameter(*Stub))
      continue;
    Kernels.push_back({Stub, DeviceName.str(), Call->getArgOperand(0)});
  }
  return Kernels;
}

void createLaunchGradients(Module &M) {
  if (!anyDerivativeKernels() || isGpuModule(M) || !canLinkRuntime(M))
    return;
  Function *Register = M.getFunction(RegisterGlobals);
  if (!Register || Register->isDeclaration())
    return;
  Instruction *End = Register->back().getTerminator();
  for (const HostKernel &K : listedKernels(*Register))
    LaunchGradientBuilder(M, K).build(*End);
}

/// `cudaLaunchKernel(stub, grid, block, args, shared, stream)` as
/// `<<<grid, block, shared, stream>>>` writes it: the configuration pushed,
/// then the stub called with the arguments loaded from \p Call's array.
/// The launch's error is the one the runtime records for it.
static void callStubOf(CallInst &Call, Function &Stub) {
  Module &M = *Call.getModule();
  IRBuilder<> B(&Call);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  FunctionCallee Push = M.getOrInsertFunction(
      "__cudaPushCallConfiguration", I32, I64, I32, I64, I32, I64, Ptr);
  B.CreateCall(Push, {Call.getArgOperand(1), Call.getArgOperand(2),
                      Call.getArgOperand(3), Call.getArgOperand(4),
                      Call.getArgOperand(6), Call.getArgOperand(7)});
  SmallVector<Value *, 8> Args;
  for (Argument &Param : Stub.args()) {
    Value *Slot =
        B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(
                              Ptr, Call.getArgOperand(5), Param.getArgNo()));
    Args.push_back(B.CreateLoad(Param.getType(), Slot));
  }
  B.CreateCall(&Stub, Args)->setDebugLoc(Call.getDebugLoc());
  Value *Error =
      B.CreateCall(M.getOrInsertFunction("cudaPeekAtLastError", I32));
  Call.replaceAllUsesWith(Error);
  Call.eraseFromParent();
}

/// The stub \p Call launches, if it has a derivative.
static Function *launchedStub(const CallBase &Call) {
  auto *Stub = dyn_cast<Function>(Call.getArgOperand(0)->stripPointerCasts());
  const Module &M = *Call.getModule();
  if (!Stub)
    return nullptr;
  for (StringRef Kind : {"register_gradient", "register_derivative"})
    if (M.getNamedGlobal(registrationName(Kind, *Stub)))
      return Stub;
  return nullptr;
}

/// \p Callee is cudaLaunchKernel, or the runtime header's C++ template
/// around it (which unoptimised code calls), both with the same operands.
static bool isLaunchKernel(const Function &Callee) {
  if (Callee.arg_size() != 8)
    return false;
  if (Callee.getName() == "cudaLaunchKernel")
    return true;
  // A template's demangled name begins with its return type.
  std::string Name = displayName(Callee.getName());
  return !Callee.isDeclaration() &&
         (StringRef(Name).starts_with("cudaLaunchKernel<") ||
          StringRef(Name).contains(" cudaLaunchKernel<"));
}

void lowerDirectLaunches(Module &M, ArrayRef<Function *> Reached) {
  if (isGpuModule(M))
    return;
  SmallVector<std::pair<CallInst *, Function *>, 4> Launches;
  for (Function *F : Reached)
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && isLaunchKernel(*Callee))
          if (Function *Stub = launchedStub(*Call))
            Launches.push_back({Call, Stub});
  for (auto [Call, Stub] : Launches)
    callStubOf(*Call, *Stub);
}

} // namespace enzyme
