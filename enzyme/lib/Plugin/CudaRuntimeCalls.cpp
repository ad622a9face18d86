//===- CudaRuntimeCalls.cpp - The CUDA runtime's memory calls -------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Differentiated host code allocates, copies, clears and frees device
/// memory with the CUDA runtime. Each such call in a function that a
/// request reaches gets a custom gradient and a custom forward derivative
/// (runtime/CudaMemory.c, runtime/CudaCopies.c) through registrations
/// written here, which the engine reads like a user's; the calls that manage
/// streams, events and devices are inactive. The 3D calls are rewritten
/// first (Cuda3DCalls.h).
/// A cudaMemcpy must move adjoints of the type the
/// memory holds, so each call
/// becomes a call of the copy for that type, as the memory's accesses in the
/// program show it (Analysis/MemoryTypes.h). A copy of values of several
/// kinds (a struct of device pointers and scalars) keeps cudaMemcpy, whose
/// derivative is given the layout of its records (CopyRecords.h); where
/// nothing types some bytes, the derivative stops the program if their
/// shadows hold anything, rather than guess.
///
//===----------------------------------------------------------------------===//

#include "Plugin/Cuda3DCalls.h"
#include "Plugin/DeclaredParameters.h"
#include "Plugin/LaunchDerivatives.h"
#include "Plugin/StubParameters.h"

#include "Analysis/CopyRecords.h"
#include "Analysis/MemoryTypes.h"
#include "Core/Diagnostics.h"
#include "Core/GpuTarget.h"
#include "Core/KernelLaunches.h"
#include "Core/RuntimeLibrary.h"
#include "Core/UserRegistrations.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

/// The run-time functions (augment, reverse: the prefix of both) that
/// differentiate calls of \p Callee, or empty.
static StringRef gradientPrefixOf(StringRef Callee) {
  // The copies of each kind of contents (copiedContents).
  if (Callee.starts_with("__enzyme_rt_cuda_memcpy_"))
    return Callee;
  return StringSwitch<StringRef>(Callee)
      .Case("cudaMalloc", "__enzyme_rt_cuda_malloc")
      .Case("cudaMallocManaged", "__enzyme_rt_cuda_malloc_managed")
      .Case("cudaMallocPitch", "__enzyme_rt_cuda_malloc_pitch")
      .Case("cudaMallocAsync", "__enzyme_rt_cuda_malloc_async")
      .Case("cudaMallocHost", "__enzyme_rt_cuda_malloc_host")
      .Case("cudaHostAlloc", "__enzyme_rt_cuda_host_alloc")
      .Case("cudaFree", "__enzyme_rt_cuda_free")
      .Case("cudaFreeAsync", "__enzyme_rt_cuda_free_async")
      .Case("cudaFreeHost", "__enzyme_rt_cuda_free_host")
      .Case("cudaGetSymbolAddress", "__enzyme_rt_cuda_get_symbol_address")
      .Case("cudaMemset", "__enzyme_rt_cuda_memset")
      .Case("cudaMemsetAsync", "__enzyme_rt_cuda_memset_async")
      .Case("cudaMemset2D", "__enzyme_rt_cuda_memset_2d")
      .Case("cudaMemset2DAsync", "__enzyme_rt_cuda_memset_2d_async")
      // The 3D calls, as lower3DCall rewrites them.
      .Case("__enzyme_rt_cuda_malloc_3d", "__enzyme_rt_cuda_malloc_3d")
      .Case("__enzyme_rt_cuda_memset_3d", "__enzyme_rt_cuda_memset_3d")
      .Case("__enzyme_rt_cuda_memset_3d_async",
            "__enzyme_rt_cuda_memset_3d_async")
      .Case("cudaMemcpy", "__enzyme_rt_cuda_memcpy_untyped")
      .Case("cudaMemcpyAsync", "__enzyme_rt_cuda_memcpy_async_untyped")
      .Case("cudaMemcpyPeer", "__enzyme_rt_cuda_memcpy_peer_untyped")
      .Case("cudaMemcpyPeerAsync", "__enzyme_rt_cuda_memcpy_peer_async_untyped")
      .Case("cudaMemcpy2D", "__enzyme_rt_cuda_memcpy_2d_untyped")
      .Case("cudaMemcpy2DAsync", "__enzyme_rt_cuda_memcpy_2d_async_untyped")
      .Case("cudaMemcpyToSymbol", "__enzyme_rt_cuda_memcpy_to_symbol_untyped")
      .Case("cudaMemcpyFromSymbol",
            "__enzyme_rt_cuda_memcpy_from_symbol_untyped")
      .Case("cudaMemcpyToSymbolAsync",
            "__enzyme_rt_cuda_memcpy_to_symbol_async_untyped")
      .Case("cudaMemcpyFromSymbolAsync",
            "__enzyme_rt_cuda_memcpy_from_symbol_async_untyped")
      .Default("");
}

namespace {
/// A runtime call that copies memory, and where its operands are.
struct CopyCall {
  StringRef Name;
  unsigned NumArgs, Dst, Src;
  /// The byte count's operand, or none (cudaMemcpy2D's rows).
  std::optional<unsigned> Length;
  /// The run-time's copies of each kind of contents start so.
  StringRef TypedPrefix;
  /// Dst and Src are loaded from a cudaMemcpy3DParms (pointersIn3DParms).
  bool InParms = false;
};
} // namespace

static const CopyCall CopyCalls[] = {
    {"cudaMemcpy", 4, 0, 1, 2, "__enzyme_rt_cuda_memcpy_"},
    {"cudaMemcpyAsync", 5, 0, 1, 2, "__enzyme_rt_cuda_memcpy_async_"},
    {"cudaMemcpyPeer", 5, 0, 2, 4, "__enzyme_rt_cuda_memcpy_peer_"},
    {"cudaMemcpyPeerAsync", 6, 0, 2, 4, "__enzyme_rt_cuda_memcpy_peer_async_"},
    {"cudaMemcpy2D", 7, 0, 2, std::nullopt, "__enzyme_rt_cuda_memcpy_2d_"},
    {"cudaMemcpy2DAsync", 8, 0, 2, std::nullopt,
     "__enzyme_rt_cuda_memcpy_2d_async_"},
    {"cudaMemcpyToSymbol", 5, 0, 1, 2, "__enzyme_rt_cuda_memcpy_to_symbol_"},
    {"cudaMemcpyFromSymbol", 5, 0, 1, 2,
     "__enzyme_rt_cuda_memcpy_from_symbol_"},
    {"cudaMemcpyToSymbolAsync", 6, 0, 1, 2,
     "__enzyme_rt_cuda_memcpy_to_symbol_async_"},
    {"cudaMemcpyFromSymbolAsync", 6, 0, 1, 2,
     "__enzyme_rt_cuda_memcpy_from_symbol_async_"},
    {"__enzyme_rt_cuda_memcpy_3d_untyped", 3, 0, 1, std::nullopt,
     Memcpy3DPrefix, true},
    {"__enzyme_rt_cuda_memcpy_3d_async_untyped", 4, 0, 1, std::nullopt,
     Memcpy3DAsyncPrefix, true},
};

/// The kind of copy \p Call is: a runtime call of CopyCalls, or the copy
/// of one kind of contents that prepareCudaRuntimeCalls put in its place.
static const CopyCall *copyKindOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return nullptr;
  StringRef Name = Callee->getName();
  for (const CopyCall &Kind : CopyCalls) {
    if (Call.arg_size() != Kind.NumArgs)
      continue;
    if (Name == Kind.Name)
      return &Kind;
    StringRef Contents = Name;
    if (Contents.consume_front(Kind.TypedPrefix) &&
        is_contained({"floats", "doubles", "integers", "pointers"}, Contents))
      return &Kind;
  }
  return nullptr;
}

/// The CUDA runtime's 3D calls, which lower3DCall rewrites.
static bool is3DCall(StringRef Name) {
  return Name == "cudaMalloc3D" || Name == "cudaMemset3D" ||
         Name == "cudaMemset3DAsync" || Name == "cudaMemcpy3D" ||
         Name == "cudaMemcpy3DAsync";
}

/// What holds the pointer \p P: the variable it was loaded from, or the
/// object itself (two loads of one variable give the same storage).
static const Value *storageOf(const Value *P) {
  const Value *Base = getUnderlyingObject(P);
  if (const auto *Load = dyn_cast<LoadInst>(Base))
    return getUnderlyingObject(Load->getPointerOperand());
  return Base;
}

/// The one floating-point type every scalar of \p Ty is (a struct or array
/// of floats only), or null.
static Type *uniformFloatType(Type *Ty) {
  if (Ty->isFloatTy() || Ty->isDoubleTy())
    return Ty;
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return uniformFloatType(AT->getElementType());
  auto *ST = dyn_cast<StructType>(Ty);
  if (!ST || ST->isOpaque() || ST->getNumElements() == 0)
    return nullptr;
  Type *Uniform = uniformFloatType(ST->getElementType(0));
  for (Type *E : ST->elements())
    if (uniformFloatType(E) != Uniform)
      return nullptr;
  return Uniform;
}

/// float or double, where the declared parameter type \p T points to one,
/// or to a struct of them only: CUDA's vector types (`float2`, `double4`;
/// `cuComplex` and `cuDoubleComplex` are `float2` and `double2`), complex
/// numbers, and the program's own structs of floats only (`struct V3 {
/// float x, y, z; }`), where \p M has the struct's type (under its name, or
/// with the suffix a link gives a second type of the name: `struct.V3.0`).
static Type *pointedFloatType(StringRef T, const Module &M) {
  LLVMContext &Ctx = M.getContext();
  T.consume_back(" __restrict");
  if (!T.consume_back("*"))
    return nullptr;
  T.consume_back(" const");
  T.consume_front("const ");
  for (StructType *ST : M.getIdentifiedStructTypes()) {
    StringRef Name = ST->getName();
    if (!Name.consume_front("struct.") && !Name.consume_front("class."))
      continue;
    if (auto [Base, Suffix] = Name.rsplit('.');
        !Suffix.empty() && all_of(Suffix, [](char C) { return isDigit(C); }))
      Name = Base;
    if (Name == T)
      if (Type *Uniform = uniformFloatType(ST))
        return Uniform;
  }
  for (auto [Scalar, Ty] :
       {std::pair(StringRef("float"), Type::getFloatTy(Ctx)),
        std::pair(StringRef("double"), Type::getDoubleTy(Ctx))}) {
    StringRef Rest = T;
    if (Rest == Scalar ||
        (Rest.consume_front(Scalar) && Rest.size() == 1 &&
         Rest.front() >= '1' && Rest.front() <= '4') ||
        T.ends_with(("complex<" + Scalar + ">").str()))
      return Ty;
  }
  return nullptr;
}

/// The element type of parameter \p Index of the C++ kernel whose host stub
/// is \p Stub, when it points to float or double: the stub's mangled name
/// carries the kernel's parameter types.
static Type *declaredElementType(const Function &Stub, unsigned Index) {
  SmallVector<std::string, 8> Types;
  if (!declaredParameterTypes(Stub, Types) || Index >= Types.size())
    return nullptr;
  return pointedFloatType(Types[Index], *Stub.getParent());
}

/// The element type that \p F's C++ declaration gives the parameter that
/// \p Ptr is (directly, or at -O0 through the variables and casts that
/// pass it on: forwardedSource), when it points to float or double; null
/// otherwise, or where the IR's parameters cannot be matched to the
/// declared ones (declaredTypeOfArgument).
static Type *parameterDeclaredType(const Value *Ptr, const Function &F) {
  const auto *Param = dyn_cast<Argument>(forwardedSource(Ptr));
  if (!Param || Param->getParent() != &F)
    return nullptr;
  std::optional<std::string> Declared = declaredTypeOfArgument(*Param);
  return Declared ? pointedFloatType(*Declared, *F.getParent()) : nullptr;
}

/// The element type that a kernel launched in \p F declares for the memory
/// \p Ptr points to, or for memory that copies in \p F move to or from it
/// (device memory the host code only copies and passes to kernels is typed
/// there alone: staged through a buffer, by the kernel that reads the
/// buffer).
static Type *kernelDeclaredType(const Value *Ptr, Function &F) {
  // The storage of Ptr and of what copies connect to it.
  SetVector<const Value *> Connected;
  Connected.insert(storageOf(Ptr));
  // Copies already given their typed function count too.
  for (unsigned I = 0; I < Connected.size(); ++I)
    for (Instruction &Inst : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&Inst);
      const CopyCall *Kind = Call ? copyKindOf(*Call) : nullptr;
      if (!Kind)
        continue;
      const Value *Dst = storageOf(Call->getArgOperand(Kind->Dst)),
                  *Src = storageOf(Call->getArgOperand(Kind->Src));
      if (Dst == Connected[I])
        Connected.insert(Src);
      if (Src == Connected[I])
        Connected.insert(Dst);
    }
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Stub = Call ? Call->getCalledFunction() : nullptr;
    if (!Stub || !kernelNameOfStub(Stub->getName()))
      continue;
    // The name lists the kernel's parameters, which the stub may take in
    // pieces (a struct passed by value).
    std::optional<SmallVector<StubParameter, 8>> Params =
        readStubParameters(*Stub);
    if (!Params)
      continue;
    for (auto [Index, P] : enumerate(*Params))
      if (!P.ByValue && P.Pieces.size() == 1 && P.MemoryType->isPointerTy()) {
        Value *Arg = Call->getArgOperand(P.Pieces.front().StubParam);
        if (Connected.contains(storageOf(Arg)))
          if (Type *Element = declaredElementType(*Stub, Index))
            return Element;
      }
  }
  return nullptr;
}

/// Runtime calls that carry no derivative: a launch's configuration (which
/// the stub's custom gradient pops), streams, events, devices, errors,
/// limits, occupancy and versions, cache preferences, memory hints. They only
/// write handles and numbers (an event's elapsed time is a float, but no
/// derivative of it is meant).
static constexpr StringLiteral InactiveRuntimeCalls[] = {
    "__cudaPushCallConfiguration",
    "cudaStreamCreate",
    "cudaStreamCreateWithFlags",
    "cudaStreamCreateWithPriority",
    "cudaStreamDestroy",
    "cudaStreamSynchronize",
    "cudaStreamWaitEvent",
    "cudaStreamQuery",
    "cudaEventCreate",
    "cudaEventCreateWithFlags",
    "cudaEventRecord",
    "cudaEventSynchronize",
    "cudaEventElapsedTime",
    "cudaEventQuery",
    "cudaEventDestroy",
    "cudaDeviceSynchronize",
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaGetErrorString",
    "cudaGetErrorName",
    "cudaGetDevice",
    "cudaSetDevice",
    "cudaGetDeviceCount",
    "cudaGetDeviceProperties",
    "cudaGetDeviceProperties_v2",
    "cudaDeviceGetAttribute",
    "cudaDeviceSetLimit",
    "cudaDeviceGetLimit",
    "cudaFuncSetAttribute",
    "cudaFuncGetAttributes",
    "cudaMemGetInfo",
    // Hints about where managed memory lives: the values stay the same (the
    // shadows get no hint).
    "cudaMemPrefetchAsync",
    "cudaMemAdvise",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaOccupancyAvailableDynamicSMemPerBlock",
    "cudaDriverGetVersion",
    "cudaRuntimeGetVersion",
    "cudaDeviceGetStreamPriorityRange",
    "cudaStreamGetPriority",
    "cudaStreamGetFlags",
    "cudaEventRecordWithFlags",
    "cudaSetDeviceFlags",
    "cudaGetDeviceFlags",
    // Whether devices may read each other's memory.
    "cudaDeviceCanAccessPeer",
    "cudaDeviceEnablePeerAccess",
    "cudaDeviceDisablePeerAccess",
    // Preferences for caches, and the profiler: no value changes.
    "cudaFuncSetCacheConfig",
    "cudaDeviceSetCacheConfig",
    "cudaDeviceGetCacheConfig",
    "cudaProfilerStart",
    "cudaProfilerStop",
};

/// The type of the scalars a global holds when they are all of one kind (a
/// `__device__` array of doubles, as its host handle declares it), or null.
static Type *globalScalarType(const Value *P) {
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(P));
  if (!GV)
    return nullptr;
  Type *T = GV->getValueType();
  while (isa<ArrayType>(T) || isa<VectorType>(T))
    T = isa<ArrayType>(T) ? T->getArrayElementType()
                          : cast<VectorType>(T)->getElementType();
  return T->isFloatingPointTy() || T->isIntegerTy() ? T : nullptr;
}

/// What a copy in \p F from \p Src to \p Dst (\p Length bytes, when
/// known) copies: the suffix of the run-time's copy for it ("floats",
/// "doubles", "integers", "pointers"), or empty when no one kind does;
/// then \p Record, when given, is set to the layout of the values of
/// several kinds it copies, where the accesses and declared types say.
static StringRef copiedContents(Value *Dst, Value *Src,
                                std::optional<uint64_t> Length,
                                Instruction &Copy, Function &F,
                                std::optional<CopyRecord> *Record) {
  for (Value *Symbol : {Dst, Src})
    if (Type *T = globalScalarType(Symbol))
      return T->isFloatTy()     ? "floats"
             : T->isDoubleTy()  ? "doubles"
             : T->isIntegerTy() ? "integers"
                                : "";
  CopyLayout Layout = analyzeCopyLayout(Dst, Src, F, &F, Length, &Copy);
  // A float member beside the pointers of a struct does not make the copy
  // one of floats.
  Type *FloatTy =
      Layout.HasPointers ? nullptr : inferFloatElementType(Dst, Src, &Copy);
  if (!FloatTy && !Layout.HasPointers)
    FloatTy = uniformFloatType(Layout);
  if (!FloatTy && !Layout.HasPointers && !Layout.HasFloats)
    if (!(FloatTy = kernelDeclaredType(Dst, F)) &&
        !(FloatTy = kernelDeclaredType(Src, F)) &&
        !(FloatTy = parameterDeclaredType(Dst, F)))
      FloatTy = parameterDeclaredType(Src, F);
  if (FloatTy && FloatTy->isFloatTy())
    return "floats";
  if (FloatTy && FloatTy->isDoubleTy())
    return "doubles";
  if (FloatTy)
    return "";
  if (Layout.HasPointers && !Layout.HasFloats)
    return "pointers";
  if (copiesOnlyIntegers(Layout, Length, F.getDataLayout()))
    return "integers";
  if (Record)
    *Record = copyRecordOf(Layout, Length, copiedElementType(Dst, Src, &F),
                           copiedObjectSize(Dst, Src), F.getDataLayout());
  return "";
}

/// What \p Copy, a call of \p Kind in \p F, copies (copiedContents). A 3D
/// copy is typed by the pointers the program puts in its
/// cudaMemcpy3DParms; where it may put several, they must agree (and
/// none gives a \p Record).
static StringRef copiedContents(CallBase &Copy, const CopyCall &Kind,
                                Function &F,
                                std::optional<CopyRecord> &Record) {
  if (!Kind.InParms) {
    std::optional<uint64_t> Length;
    if (Kind.Length)
      if (auto *C = dyn_cast<ConstantInt>(Copy.getArgOperand(*Kind.Length)))
        Length = C->getZExtValue();
    return copiedContents(Copy.getArgOperand(Kind.Dst),
                          Copy.getArgOperand(Kind.Src), Length, Copy, F,
                          &Record);
  }
  SmallVector<Value *, 4> Dsts = pointersIn3DParms(Copy, true),
                          Srcs = pointersIn3DParms(Copy, false);
  if (Dsts.empty())
    Dsts = Srcs;
  if (Srcs.empty())
    Srcs = Dsts;
  std::optional<StringRef> Agreed;
  for (Value *Dst : Dsts)
    for (Value *Src : Srcs) {
      StringRef Contents =
          copiedContents(Dst, Src, std::nullopt, Copy, F, nullptr);
      if (Agreed && *Agreed != Contents)
        return "";
      Agreed = Contents;
    }
  return Agreed.value_or("");
}

/// \p Rule, a run-time forward rule that returns the call's integer result,
/// in the custom-derivative ABI: {result, tangent}, the tangent zero (an
/// error code has none), so that the engine takes the result from the rule
/// instead of calling the function again.
static Function *forwardReturningResult(Module &M, Function &Rule) {
  std::string Name = (Rule.getName() + ".with.result").str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  Type *Result = Rule.getReturnType();
  auto *F = Function::Create(
      FunctionType::get(StructType::get(M.getContext(), {Result, Result}),
                        Rule.getFunctionType()->params(), false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr("enzyme_inactive");
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  SmallVector<Value *, 8> Args;
  for (Argument &A : F->args())
    Args.push_back(&A);
  Value *Pair = PoisonValue::get(F->getReturnType());
  Pair = B.CreateInsertValue(Pair, B.CreateCall(&Rule, Args), 0);
  Pair = B.CreateInsertValue(Pair, Constant::getNullValue(Result), 1);
  B.CreateRet(Pair);
  return F;
}

/// A function of its own for the untyped copy \p Call (of \p Callee, one of
/// the runtime's copies that no one kind types), so that its derivative can
/// say where it is and what it copies: it calls \p Callee.
static Function *untypedCopySite(Module &M, CallBase &Call, Function &Callee) {
  auto *Site =
      Function::Create(Callee.getFunctionType(), GlobalValue::InternalLinkage,
                       Callee.getName() + ".untyped.site", M);
  Site->addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Site));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Site->args())
    Args.push_back(&A);
  Value *Result = B.CreateCall(&Callee, Args);
  B.CreateRet(Result);
  Call.setCalledFunction(Site);
  return Site;
}

/// \p Record's fields as a constant array in \p M, in the run-time's
/// `struct copy_field` layout.
static GlobalVariable *emitCopyRecord(Module &M, const CopyRecord &Record) {
  LLVMContext &Ctx = M.getContext();
  Type *Word = Type::getInt64Ty(Ctx);
  auto *FieldTy = StructType::get(Ctx, {Word, Word, Word});
  SmallVector<Constant *, 8> Fields;
  for (const CopyRecord::Field &F : Record.Fields)
    Fields.push_back(ConstantStruct::get(
        FieldTy,
        {ConstantInt::get(Word, F.Offset), ConstantInt::get(Word, F.Size),
         ConstantInt::get(Word, uint64_t(F.What))}));
  auto *Ty = ArrayType::get(FieldTy, Fields.size());
  auto *GV = new GlobalVariable(
      M, Ty, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(Ty, Fields), "enzyme.cuda.copy.record");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

/// What the run-time's augment or reverse of an untyped copy needs to know
/// about the copy: where it is, for its messages, and the layout of what
/// it copies, when known.
struct CopyContext {
  DebugLoc Loc;
  std::optional<CopyRecord> Record;
  /// The record's fields in the module, once emitted.
  GlobalVariable *Fields = nullptr;
};

/// \p Rule, the run-time's augment or reverse of an untyped copy, run with
/// \p Context set (runtime/CudaCopies.c: `__enzyme_rt_cuda_copy_site`,
/// `__enzyme_rt_cuda_copy_record`), or \p Rule itself where there is none.
static Function *inCopyContext(Module &M, Function &Rule,
                               CopyContext &Context) {
  if (!Context.Loc && !Context.Record)
    return &Rule;
  auto *F =
      Function::Create(Rule.getFunctionType(), GlobalValue::InternalLinkage,
                       Rule.getName() + ".in.context", M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  Function *SetSite = getRuntimeFunction(M, "__enzyme_rt_cuda_copy_site");
  Function *SetRecord = getRuntimeFunction(M, "__enzyme_rt_cuda_copy_record");
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  Value *Zero = B.getInt64(0);
  if (Context.Loc)
    B.CreateCall(SetSite, {B.CreateGlobalString(describeLocation(Context.Loc),
                                                "enzyme.cuda.copy.at")});
  if (Context.Record && !Context.Fields)
    Context.Fields = emitCopyRecord(M, *Context.Record);
  if (Context.Record)
    B.CreateCall(SetRecord,
                 {Context.Fields, B.getInt64(Context.Record->Fields.size()),
                  B.getInt64(Context.Record->Stride)});
  SmallVector<Value *, 8> Args;
  for (Argument &A : F->args())
    Args.push_back(&A);
  Value *Result = B.CreateCall(&Rule, Args);
  if (Context.Loc)
    B.CreateCall(SetSite, {Null});
  if (Context.Record)
    B.CreateCall(SetRecord, {Null, Zero, Zero});
  if (F->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Result);
  return F;
}

void prepareCudaRuntimeCalls(Module &M, ArrayRef<Function *> Reached) {
  if (isGpuModule(M) || !canLinkRuntime(M))
    return;
  for (StringRef Name : InactiveRuntimeCalls)
    if (Function *F = M.getFunction(Name); F && F->isDeclaration())
      F->addFnAttr("enzyme_inactive");
  SmallVector<CallBase *, 8> Calls;
  SmallVector<Function *, 8> Callers;
  for (Function *F : Reached) {
    for (Instruction &I : instructions(*F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee->isDeclaration() &&
            (is3DCall(Callee->getName()) ||
             !gradientPrefixOf(Callee->getName()).empty())) {
          Calls.push_back(Call);
          Callers.push_back(F);
        }
  }
  if (Calls.empty())
    return;

  // A user's own derivatives or inactive mark are kept as written.
  SmallPtrSet<const Function *, 8> Registered = registeredFunctions(M);
  SmallPtrSet<const Function *, 8> RegisteredForward =
      registeredFunctions(M, RequestFamily::Forward);
  SetVector<Function *> Differentiated;
  // Untyped copies with a source location or a layout: (their own
  // function, the runtime's, what its derivative needs to know).
  SmallVector<std::tuple<Function *, Function *, CopyContext>, 2> Sites;
  for (auto [Call, Caller] : zip(Calls, Callers)) {
    Function *Callee = Call->getCalledFunction();
    if (Registered.count(Callee) || RegisteredForward.count(Callee))
      continue;
    if (is3DCall(Callee->getName())) {
      // One the rewrite does not know stays a call without a rule, which
      // the engine reports.
      CallBase *Lowered = lower3DCall(*Call);
      if (!Lowered)
        continue;
      Call = Lowered;
      Callee = Call->getCalledFunction();
    }
    unsigned NumArgs = Call->arg_size();
    const CopyCall *Kind = find_if(CopyCalls, [&](const CopyCall &K) {
      return Callee->getName() == K.Name && NumArgs == K.NumArgs;
    });
    if (Kind != std::end(CopyCalls)) {
      CopyContext Context{Call->getDebugLoc(), std::nullopt, nullptr};
      StringRef Contents =
          copiedContents(*Call, *Kind, *Caller, Context.Record);
      Function *Copy =
          Contents.empty()
              ? nullptr
              : getRuntimeFunction(M, (Kind->TypedPrefix + Contents).str());
      if (Copy && Copy->getFunctionType() == Call->getFunctionType()) {
        Call->setCalledFunction(Copy);
        Callee = Copy;
      } else if (Contents.empty() && (Context.Loc || Context.Record)) {
        Sites.emplace_back(untypedCopySite(M, *Call, *Callee), Callee,
                           std::move(Context));
        continue;
      }
    }
    Differentiated.insert(Callee);
  }
  auto Register = [&](Function &F, StringRef Prefix, Function *Augment,
                      Function *Reverse) {
    if (!Registered.count(&F))
      addRegistration(M, "register_gradient", F, {Augment, Reverse});
    if (!RegisteredForward.count(&F))
      addRegistration(
          M, "register_derivative", F,
          {forwardReturningResult(
              M, *getRuntimeFunction(M, (Prefix + "_forward").str()))});
  };
  auto Rule = [&](StringRef Prefix, StringRef Suffix) {
    return getRuntimeFunction(M, (Prefix + Suffix).str());
  };
  for (Function *F : Differentiated) {
    StringRef Prefix = gradientPrefixOf(F->getName());
    Register(*F, Prefix, Rule(Prefix, "_augment"), Rule(Prefix, "_reverse"));
  }
  for (auto &[Site, Callee, Context] : Sites) {
    StringRef Prefix = gradientPrefixOf(Callee->getName());
    Register(*Site, Prefix,
             inCopyContext(M, *Rule(Prefix, "_augment"), Context),
             inCopyContext(M, *Rule(Prefix, "_reverse"), Context));
  }
}

} // namespace enzyme
