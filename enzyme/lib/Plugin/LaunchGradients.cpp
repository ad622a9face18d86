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
#include "Plugin/StubParameters.h"

#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme {

static constexpr StringLiteral RegisterGlobals = "__cuda_register_globals";
static constexpr StringLiteral OffloadingEntrySection =
    "cuda_offloading_entries";

namespace {
/// One kernel of this file's device code, as the host sees it.
struct HostKernel {
  Function *Stub;
  std::string DeviceName;
  /// The fat binary's handle, as __cuda_register_globals has it; null
  /// where the file registers its kernels through offloading entries.
  Value *Binary;
  /// How the stub passes each of the kernel's parameters.
  SmallVector<StubParameter, 8> Params;
};

/// A half's arguments per stub parameter: the value, and its shadow (or
/// tangent) where the custom derivative's ABI gives one, else null.
struct HalfArguments {
  SmallVector<Value *, 8> Values, Shadows;
};

/// Builds the custom gradient of one stub.
class LaunchGradientBuilder {
public:
  LaunchGradientBuilder(Module &M, const HostKernel &Kernel)
      : M(M), Ctx(M.getContext()), K(Kernel), Stub(*Kernel.Stub),
        Ptr(PointerType::getUnqual(Ctx)) {}
  /// Registers the derivative kernels before \p RegistrationEnd, the end of
  /// `__cuda_register_globals`, or in offloading entries where it is null.
  void build(Instruction *RegistrationEnd);

private:
  Module &M;
  LLVMContext &Ctx;
  const HostKernel &K;
  Function &Stub;
  PointerType *Ptr;

  /// The parameters that carry a shadow in the custom derivatives' ABI:
  /// pointers, and in forward mode floating-point values (their tangents).
  static bool hasShadow(Type *T, bool Forward) {
    return T->isPointerTy() || (Forward && T->isFPOrFPVectorTy());
  }
  Function *createHalf(StringRef Suffix, Type *RetTy, ArrayRef<Type *> Extra,
                       bool Forward = false);
  GlobalVariable *createHandle(const Twine &Name);
  HalfArguments halfArguments(Function &Half, bool Forward) const;
  Value *assemble(IRBuilder<> &B, const StubParameter &P,
                  ArrayRef<Value *> PieceValues, bool Zeroed);
  Value *shadowOf(IRBuilder<> &B, const StubParameter &P,
                  const HalfArguments &Args, bool Forward, bool &Complete);
  Value *argumentArray(IRBuilder<> &B, const HalfArguments &Args, unsigned Room,
                       unsigned &Count, Value *&Shadows, bool Forward = false);
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
  SmallVector<std::pair<unsigned, FloatField>, 8> scalarAdjoints() const;
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

HalfArguments LaunchGradientBuilder::halfArguments(Function &Half,
                                                   bool Forward) const {
  HalfArguments Args;
  unsigned Next = 0;
  for (Type *T : Stub.getFunctionType()->params()) {
    Args.Values.push_back(Half.getArg(Next++));
    Args.Shadows.push_back(hasShadow(T, Forward) ? Half.getArg(Next++)
                                                 : nullptr);
  }
  return Args;
}

/// A local of \p P's memory type holding \p PieceValues (one per piece; a
/// null one is left out) where the stub stores its pieces, zeroed first
/// when \p Zeroed; for a struct passed byval, the value of its parameter.
Value *LaunchGradientBuilder::assemble(IRBuilder<> &B, const StubParameter &P,
                                       ArrayRef<Value *> PieceValues,
                                       bool Zeroed) {
  const DataLayout &DL = M.getDataLayout();
  AllocaInst *Local = B.CreateAlloca(P.MemoryType);
  Local->setAlignment(DL.getPrefTypeAlign(P.MemoryType));
  if (Zeroed)
    B.CreateMemSet(Local, B.getInt8(0), DL.getTypeAllocSize(P.MemoryType),
                   Local->getAlign());
  for (auto [Piece, Value] : zip(P.Pieces, PieceValues))
    if (Value)
      B.CreateStore(Value, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Local,
                                                        Piece.Offset));
  return Local;
}

/// The memory that holds \p P's shadow, or its tangent in \p Forward
/// mode, as the derivative kernels take it; null for a parameter without
/// one. \p Complete: the host code has a shadow for each of its pointers.
Value *LaunchGradientBuilder::shadowOf(IRBuilder<> &B, const StubParameter &P,
                                       const HalfArguments &Args, bool Forward,
                                       bool &Complete) {
  Complete = true;
  Type *T = P.MemoryType;
  if (!P.isStruct() && !T->isPointerTy() &&
      !(Forward && T->isFloatingPointTy()))
    return nullptr;
  if (P.ByValue) {
    // The shadow of the byval copy: a struct of the same type that holds
    // the pointers' shadows (and in forward mode the floats' tangents).
    if (Value *Shadow = Args.Shadows[*P.ByValue])
      return Shadow;
    Complete = false;
    return assemble(B, P, {}, /*Zeroed=*/true);
  }
  SmallVector<Value *, 2> Pieces;
  for (const StubPiece &Piece : P.Pieces) {
    Value *Shadow = Args.Shadows[Piece.StubParam];
    Type *PieceTy = Args.Values[Piece.StubParam]->getType();
    if (PieceTy->isPointerTy() && !Shadow) {
      Complete = false;
      Shadow = Constant::getNullValue(PieceTy);
    }
    Pieces.push_back(Shadow);
  }
  return assemble(B, P, Pieces, /*Zeroed=*/true);
}

/// The kernel arguments in memory, as cudaLaunchKernel takes them: the
/// kernel's parameters, then the shadows of its pointers and structs (and
/// in forward mode the tangents of its floats), then \p Room slots the
/// runtime fills. \p Count: the arguments before them. \p Shadows: per
/// kernel parameter, its shadow or null (for the runtime's check of the
/// shadows the kernel's derivative uses).
Value *LaunchGradientBuilder::argumentArray(IRBuilder<> &B,
                                            const HalfArguments &Args,
                                            unsigned Room, unsigned &Count,
                                            Value *&Shadows, bool Forward) {
  SmallVector<Value *, 8> Memory, ShadowMemory, Present;
  for (const StubParameter &P : K.Params) {
    if (P.ByValue) {
      Memory.push_back(Args.Values[*P.ByValue]);
    } else {
      SmallVector<Value *, 2> Pieces;
      for (const StubPiece &Piece : P.Pieces)
        Pieces.push_back(Args.Values[Piece.StubParam]);
      Memory.push_back(assemble(B, P, Pieces, /*Zeroed=*/false));
    }
    bool Complete;
    Value *Shadow = shadowOf(B, P, Args, Forward, Complete);
    if (Shadow)
      ShadowMemory.push_back(Shadow);
    // A float's tangent is no shadow the kernel may need.
    bool IsPointer = P.MemoryType->isPointerTy();
    Present.push_back(!Shadow || !Complete || !(IsPointer || P.isStruct())
                          ? Constant::getNullValue(Ptr)
                      : IsPointer ? B.CreateLoad(Ptr, Shadow)
                                  : Shadow);
  }
  Memory.append(ShadowMemory.begin(), ShadowMemory.end());
  Count = Memory.size();
  auto *ArrayTy = ArrayType::get(Ptr, Count + Room);
  Value *Array = B.CreateAlloca(ArrayTy, nullptr, "kernel.args");
  for (auto [I, V] : enumerate(Memory))
    B.CreateStore(V, B.CreateConstInBoundsGEP2_32(ArrayTy, Array, 0, I));
  auto *ShadowsTy = ArrayType::get(Ptr, Present.size());
  Shadows = B.CreateAlloca(ShadowsTy, nullptr, "shadows");
  for (auto [I, V] : enumerate(Present))
    B.CreateStore(V, B.CreateConstInBoundsGEP2_32(ShadowsTy, Shadows, 0, I));
  return Array;
}

Function *LaunchGradientBuilder::createAugment(GlobalVariable *Handle,
                                               GlobalVariable *Info,
                                               GlobalVariable *Symbol) {
  Function *F = createHalf(".enzyme.augment", Ptr, {});
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  unsigned Count;
  Value *Shadows;
  Value *Args = argumentArray(B, halfArguments(*F, /*Forward=*/false),
                              /*Room=*/2, Count, Shadows);
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_augment_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  Value *Record =
      B.CreateCall(Launch, {Handle, Name, Info, Symbol, Args, B.getInt32(Count),
                            Shadows, B.getInt32(K.Params.size()),
                            B.getInt32(scalarAdjoints().size())});
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
  Value *Shadows;
  Value *Args = argumentArray(B, halfArguments(*F, /*Forward=*/true),
                              /*Room=*/1, Count, Shadows, /*Forward=*/true);
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_tangent_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  B.CreateCall(Launch, {Handle, Name, Info, Symbol, Args, B.getInt32(Count),
                        Shadows, B.getInt32(K.Params.size())});
  B.CreateRetVoid();
  return F;
}

/// The floating-point values whose adjoints the reverse kernel sums, in
/// its order (Core/KernelLaunches.h): per kernel parameter, a float or
/// double itself, or the floats of a struct.
SmallVector<std::pair<unsigned, FloatField>, 8>
LaunchGradientBuilder::scalarAdjoints() const {
  SmallVector<std::pair<unsigned, FloatField>, 8> Adjoints;
  for (auto [Index, P] : enumerate(K.Params)) {
    SmallVector<FloatField, 4> Fields;
    if (P.MemoryType->isFloatingPointTy())
      Fields.push_back({0, P.MemoryType});
    else if (P.isStruct())
      floatFieldsOf(P.MemoryType, M.getDataLayout(), Fields);
    for (const FloatField &Field : Fields)
      Adjoints.push_back({unsigned(Index), Field});
  }
  return Adjoints;
}

Function *LaunchGradientBuilder::createReverse(GlobalVariable *Handle) {
  // One gradient per floating-point stub parameter (a float, a double, or
  // a piece of a struct): alone, or a struct of them.
  SmallVector<Type *, 4> Scalars;
  SmallVector<int, 8> GradientIndex;
  for (Type *T : Stub.getFunctionType()->params()) {
    GradientIndex.push_back(T->isFPOrFPVectorTy() ? Scalars.size() : -1);
    if (T->isFPOrFPVectorTy())
      Scalars.push_back(T);
  }
  Type *RetTy = Scalars.empty()       ? Type::getVoidTy(Ctx)
                : Scalars.size() == 1 ? Scalars.front()
                                      : StructType::get(Ctx, Scalars);
  Function *F = createHalf(".enzyme.reverse", RetTy, {Ptr});
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  unsigned Count;
  Value *Shadows;
  HalfArguments Half = halfArguments(*F, /*Forward=*/false);
  Value *Args = argumentArray(B, Half, /*Room=*/3, Count, Shadows);
  // The sums come back as doubles (Core/KernelLaunches.h).
  SmallVector<std::pair<unsigned, FloatField>, 8> Adjoints = scalarAdjoints();
  auto *AdjointsTy = ArrayType::get(B.getDoubleTy(), Adjoints.size());
  Value *Sums = B.CreateAlloca(AdjointsTy, nullptr, "adjoints");
  Function *Launch = getRuntimeFunction(M, "__enzyme_rt_cuda_reverse_launch");
  Value *Name = B.CreateGlobalString(displayName(K.DeviceName),
                                     Stub.getName() + ".kernel.name");
  B.CreateCall(Launch, {Handle, Name, F->getArg(F->arg_size() - 1), Args,
                        B.getInt32(Count), Sums, B.getInt32(Adjoints.size()),
                        B.getInt32(ScalarAdjointReplicas)});
  // Each sum goes where the host code's derivative of that value is: the
  // gradient of the stub parameter that passes it, or the shadow of a
  // struct passed byval. A float that the host ABI packs into an integer
  // has none; the engine makes sure the host code gives it no derivative
  // (Analysis/ActivityAnalysis.h, floatBitsPassedAsInteger).
  SmallVector<Value *, 4> Gradients;
  for (Type *T : Scalars)
    Gradients.push_back(Constant::getNullValue(T));
  const DataLayout &DL = M.getDataLayout();
  for (auto [I, Adjoint] : enumerate(Adjoints)) {
    auto [Param, Field] = Adjoint;
    const StubParameter &P = K.Params[Param];
    Value *Sum = B.CreateFPTrunc(
        B.CreateLoad(B.getDoubleTy(),
                     B.CreateConstInBoundsGEP2_32(AdjointsTy, Sums, 0, I)),
        Field.Ty);
    if (P.ByValue) {
      if (Value *Shadow = Half.Shadows[*P.ByValue]) {
        Value *Slot =
            B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Shadow, Field.Offset);
        B.CreateStore(B.CreateFAdd(B.CreateLoad(Field.Ty, Slot), Sum), Slot);
      }
      continue;
    }
    for (const StubPiece &Piece : P.Pieces) {
      Type *PieceTy = Stub.getArg(Piece.StubParam)->getType();
      uint64_t Size = DL.getTypeStoreSize(PieceTy);
      int G = GradientIndex[Piece.StubParam];
      if (G < 0 || Field.Offset < Piece.Offset ||
          Field.Offset >= Piece.Offset + Size ||
          PieceTy->getScalarType() != Field.Ty)
        continue;
      Value *&Gradient = Gradients[G];
      if (auto *VecTy = dyn_cast<FixedVectorType>(PieceTy)) {
        uint64_t Lane =
            (Field.Offset - Piece.Offset) / DL.getTypeStoreSize(Field.Ty);
        Gradient = B.CreateInsertElement(
            Gradient, B.CreateFAdd(B.CreateExtractElement(Gradient, Lane), Sum),
            Lane);
      } else if (Field.Offset == Piece.Offset) {
        Gradient = B.CreateFAdd(Gradient, Sum);
      }
    }
  }
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

/// With clang's new offload driver (--offload-new-driver), a file lists its
/// kernels and device variables in offloading entries, which the device
/// link's registration code (clang-linker-wrapper) registers: \p Address,
/// the host handle, under the device name \p DeviceName; \p Size is 0 for a
/// kernel, a variable's bytes otherwise.
static void addOffloadingEntry(Module &M, Constant *Address,
                               StringRef DeviceName, uint64_t Size) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Constant *Text = ConstantDataArray::getString(Ctx, DeviceName);
  auto *Name = new GlobalVariable(M, Text->getType(), /*isConstant=*/true,
                                  GlobalValue::InternalLinkage, Text,
                                  ".offloading.entry_name");
  Name->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  auto *EntryTy = StructType::get(Ptr, Ptr, I64, I32, I32);
  auto *Entry = new GlobalVariable(
      M, EntryTy, /*isConstant=*/true, GlobalValue::WeakAnyLinkage,
      ConstantStruct::get(EntryTy,
                          {Address, Name, ConstantInt::get(I64, Size),
                           ConstantInt::get(I32, 0), ConstantInt::get(I32, 0)}),
      ".offloading.entry." + DeviceName);
  Entry->setSection(OffloadingEntrySection);
  Entry->setAlignment(Align(1));
  appendToCompilerUsed(M, {Entry});
}

GlobalVariable *LaunchGradientBuilder::registerKernel(
    IRBuilder<> &B, const std::string &DeviceName, const Twine &HandleName) {
  GlobalVariable *Handle = createHandle(HandleName);
  if (!K.Binary) {
    addOffloadingEntry(M, Handle, DeviceName, 0);
    return Handle;
  }
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
  auto *SymbolTy = ArrayType::get(I64, 4);
  Symbol = new GlobalVariable(M, SymbolTy, false, GlobalValue::InternalLinkage,
                              Constant::getNullValue(SymbolTy),
                              HostName + ".symbol");
  auto *InfoTy = StructType::get(I64, I64, I64, I64, I32);
  Info = new GlobalVariable(M, InfoTy, false, GlobalValue::InternalLinkage,
                            Constant::getNullValue(InfoTy), HostName);
  uint64_t Bytes = M.getDataLayout().getTypeAllocSize(SymbolTy);
  if (!K.Binary) {
    addOffloadingEntry(M, Symbol, DeviceName, Bytes);
    return;
  }
  FunctionCallee RegisterVar =
      M.getOrInsertFunction("__cudaRegisterVar", B.getVoidTy(), Ptr, Ptr, Ptr,
                            Ptr, I32, I64, I32, I32);
  Value *Str = B.CreateGlobalString(DeviceName, HostName + ".name");
  B.CreateCall(RegisterVar, {K.Binary, Symbol, Str, Str, B.getInt32(0),
                             B.getInt64(Bytes), B.getInt32(0), B.getInt32(0)});
}

void LaunchGradientBuilder::build(Instruction *RegistrationEnd) {
  // Host-side names stay clear of `__enzyme_`, which registrations use.
  std::string Prefix = "enzyme.launch." + K.DeviceName;
  IRBuilder<> B(Ctx);
  if (RegistrationEnd)
    B.SetInsertPoint(RegistrationEnd);
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

/// The string \p Name holds, if it is a constant C string.
static std::optional<StringRef> constantString(Value *Name) {
  auto *G = dyn_cast<GlobalVariable>(Name->stripPointerCasts());
  auto *Init = G && G->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(G->getInitializer())
                   : nullptr;
  if (!Init || !Init->isCString())
    return std::nullopt;
  return Init->getAsCString();
}

/// Adds the kernel whose host stub \p StubValue names, under the device
/// name \p DeviceNameValue holds, to \p Kernels if the driver listed it.
static void addListedKernel(SmallVectorImpl<HostKernel> &Kernels,
                            Value *StubValue, Value *DeviceNameValue,
                            Value *Binary) {
  auto *Stub = dyn_cast<Function>(StubValue->stripPointerCasts());
  std::optional<StringRef> Name = constantString(DeviceNameValue);
  if (!Stub || Stub->isDeclaration() || !Name)
    return;
  StringRef DeviceName = *Name;
  if (!isDerivativeKernel(DeviceName) && !isTangentKernel(DeviceName))
    return;
  std::optional<SmallVector<StubParameter, 8>> Params =
      readStubParameters(*Stub);
  if (!Params) {
    reportError(*Stub->getEntryBlock().getFirstNonPHIOrDbg(),
                "cannot differentiate the launches of kernel '" +
                    displayName(DeviceName) +
                    "': its host stub does not pass the kernel's "
                    "parameters to cudaLaunchKernel in a way the toolchain "
                    "knows (pointers, integers, float, double and structs "
                    "of them)");
    return;
  }
  Kernels.push_back({Stub, DeviceName.str(), Binary, std::move(*Params)});
}

/// The kernels that \p Register registers, which the driver listed.
static SmallVector<HostKernel, 4> listedKernels(Function &Register) {
  SmallVector<HostKernel, 4> Kernels;
  for (Instruction &I : instructions(Register)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Callee->getName() == "__cudaRegisterFunction" &&
        Call->arg_size() >= 3)
      addListedKernel(Kernels, Call->getArgOperand(1), Call->getArgOperand(2),
                      Call->getArgOperand(0));
  }
  return Kernels;
}

/// The kernels that \p M's offloading entries register (new offload
/// driver), which the driver listed: entries of size 0 name a kernel.
static SmallVector<HostKernel, 4> listedEntryKernels(Module &M) {
  SmallVector<HostKernel, 4> Kernels;
  for (GlobalVariable &G : M.globals()) {
    auto *Entry = G.hasInitializer() && G.getSection() == OffloadingEntrySection
                      ? dyn_cast<ConstantStruct>(G.getInitializer())
                      : nullptr;
    if (!Entry || Entry->getNumOperands() < 3)
      continue;
    auto *Size = dyn_cast<ConstantInt>(Entry->getOperand(2));
    if (Size && Size->isZero())
      addListedKernel(Kernels, Entry->getOperand(0), Entry->getOperand(1),
                      nullptr);
  }
  return Kernels;
}

void createLaunchGradients(Module &M) {
  if (!anyDerivativeKernels() || isGpuModule(M) || !canLinkRuntime(M))
    return;
  Function *Register = M.getFunction(RegisterGlobals);
  if (Register && !Register->isDeclaration()) {
    Instruction *End = Register->back().getTerminator();
    for (const HostKernel &K : listedKernels(*Register))
      LaunchGradientBuilder(M, K).build(End);
    return;
  }
  for (const HostKernel &K : listedEntryKernels(M))
    LaunchGradientBuilder(M, K).build(nullptr);
}

} // namespace enzyme
