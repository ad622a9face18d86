//===- KernelDerivatives.cpp - Derivative kernels of launched kernels -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The device half of differentiating host code that launches kernels
/// (Core/KernelLaunches.h). A kernel is an entry point, not a function the
/// engine differentiates in place: its body is copied into a device
/// function, whose split-mode pair the two derivative kernels call, each
/// thread with its share of a tape buffer the host allocates. The tape is
/// fixed in size where the body allows (kept in the buffer word-interleaved
/// across threads, so that a warp's accesses are contiguous) and otherwise
/// grows on the device heap (a slot per thread holds its header). The inputs
/// may change between the launches (host code often swaps buffers), so the
/// augmented kernel records what the reverse one needs. For forward mode, a
/// tangent kernel calls the body's tangent function, with no tape.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"

#include "Plugin/LoweringSupport.h"

#include "Core/Activity.h"
#include "Core/Diagnostics.h"
#include "Core/DifferentiationFailure.h"
#include "Core/GlobalShadows.h"
#include "Core/KernelLaunches.h"
#include "Modes/ForwardModeGenerator.h"
#include "Modes/ReverseModeGenerator.h"
#include "Modes/SharedAdjoints.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace enzyme {

/// The slots of the tape buffer are this aligned.
static constexpr uint64_t TapeSlotAlign = 16;

/// A fixed tape of at most this many 8-byte words lives in the thread's
/// registers while the pair runs and is stored word-interleaved: word W of
/// thread T at word W * Threads + T of the buffer, so that a warp's stores
/// and loads of one word are contiguous. A larger one is used in place, in
/// a slot of its own per thread.
static constexpr uint64_t MaxInterleavedWords = 64;

static Value *readRegister(IRBuilder<> &B, Intrinsic::ID ID) {
  return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), B.getInt64Ty());
}

/// The number of threads of the launch.
static Value *launchThreads(IRBuilder<> &B) {
  using namespace Intrinsic;
  Value *Threads = B.getInt64(1);
  for (Intrinsic::ID ID :
       {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y,
        nvvm_read_ptx_sreg_ntid_z, nvvm_read_ptx_sreg_nctaid_x,
        nvvm_read_ptx_sreg_nctaid_y, nvvm_read_ptx_sreg_nctaid_z})
    Threads = B.CreateMul(Threads, readRegister(B, ID));
  return Threads;
}

/// X + NX * (Y + NY * Z) of the registers named.
static Value *linearIndex(IRBuilder<> &B, Intrinsic::ID X, Intrinsic::ID Y,
                          Intrinsic::ID Z, Intrinsic::ID NX, Intrinsic::ID NY) {
  Value *Row = B.CreateAdd(B.CreateMul(readRegister(B, Z), readRegister(B, NY)),
                           readRegister(B, Y));
  return B.CreateAdd(B.CreateMul(Row, readRegister(B, NX)), readRegister(B, X));
}

/// The block's index in the grid, x fastest.
static Value *linearBlockIndex(IRBuilder<> &B) {
  using namespace Intrinsic;
  return linearIndex(B, nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                     nvvm_read_ptx_sreg_ctaid_z, nvvm_read_ptx_sreg_nctaid_x,
                     nvvm_read_ptx_sreg_nctaid_y);
}

/// The thread's index in its block, x fastest.
static Value *threadInBlock(IRBuilder<> &B) {
  using namespace Intrinsic;
  return linearIndex(B, nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y,
                     nvvm_read_ptx_sreg_tid_z, nvvm_read_ptx_sreg_ntid_x,
                     nvvm_read_ptx_sreg_ntid_y);
}

/// The number of threads of a block.
static Value *blockSize(IRBuilder<> &B) {
  using namespace Intrinsic;
  return B.CreateMul(B.CreateMul(readRegister(B, nvvm_read_ptx_sreg_ntid_x),
                                 readRegister(B, nvvm_read_ptx_sreg_ntid_y)),
                     readRegister(B, nvvm_read_ptx_sreg_ntid_z));
}

/// The thread's index in the whole launch, x fastest (as the host counts
/// the launch's threads).
static Value *linearThreadIndex(IRBuilder<> &B) {
  Value *Thread = threadInBlock(B);
  Value *Threads = blockSize(B);
  Value *Block = linearBlockIndex(B);
  return B.CreateAdd(B.CreateMul(Block, Threads), Thread);
}

/// The first instruction of \p K's own code (not inlined into it), where
/// errors about it are reported.
static const Instruction &reportPoint(const Function &K) {
  for (const Instruction &I : instructions(K))
    if (I.getDebugLoc() && !I.getDebugLoc().getInlinedAt())
      return I;
  return *K.getEntryBlock().begin();
}

/// A kernel of \p K's module beside \p K, taking \p Params, with \p K's
/// linkage and target attributes.
static Function *createKernelBeside(Function &K, StringRef Name,
                                    ArrayRef<Type *> Params) {
  Module &M = *K.getParent();
  // Kernels of a template instance may be in several files' device code.
  GlobalValue::LinkageTypes Linkage =
      K.hasLocalLinkage() ? GlobalValue::InternalLinkage
      : K.isInterposable() || K.hasLinkOnceLinkage()
          ? GlobalValue::WeakODRLinkage
          : GlobalValue::ExternalLinkage;
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(M.getContext()), Params, false),
      Linkage, Name, M);
  F->setCallingConv(K.getCallingConv());
  for (const Attribute &A : K.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      F->addFnAttr(A);
  markCudaKernel(*F);
  appendToCompilerUsed(M, {F});
  return F;
}

/// \p Kernel's body as an internal device function (a kernel is an entry
/// point, which the generators do not differentiate in place).
static Function *cloneKernelBody(Function &Kernel, StringRef Suffix) {
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&Kernel, VMap);
  Body->setName(Kernel.getName() + Suffix);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setCallingConv(CallingConv::C);
  return Body;
}

/// Why derivative kernels of \p K cannot take one of its parameters, or
/// empty.
static std::string unsupportedParameterReason(Function &K) {
  std::optional<unsigned> Bad = unsupportedKernelParameter(K);
  if (!Bad)
    return "";
  std::string What =
      K.getArg(*Bad)->hasByValAttr()
          ? " is a struct passed by value that holds a union, a vector, a "
            "floating-point type other than float and double, or more "
            "than " +
                std::to_string(MaxStructFloatFields) + " floats"
          : " is passed by value as a vector or another type that is not a "
            "pointer, an integer, float, double or a struct";
  return "its parameter " + std::to_string(*Bad + 1) + What +
         "; derivative kernels take pointers, integers, float, double and "
         "structs of them (pass other values through a pointer)";
}

/// The float and double fields of \p K's struct parameter \p A (none for
/// a parameter that is not a struct passed by value).
static SmallVector<FloatField, 4> floatFieldsOfParam(const Argument &A) {
  SmallVector<FloatField, 4> Fields;
  if (A.hasByValAttr())
    floatFieldsOf(A.getParamByValType(), A.getParent()->getDataLayout(),
                  Fields);
  return Fields;
}

/// A struct \p K takes by value needs its shadow for the shadows of its
/// pointers; the adjoints or tangents of its floats may be zero.
static bool holdsPointers(const Argument &A) {
  auto Walk = [](auto &Self, Type *T) -> bool {
    if (auto *ST = dyn_cast<StructType>(T))
      return any_of(ST->elements(), [&](Type *E) { return Self(Self, E); });
    if (auto *AT = dyn_cast<ArrayType>(T))
      return Self(Self, AT->getElementType());
    return T->isPointerTy();
  };
  return A.hasByValAttr() && Walk(Walk, A.getParamByValType());
}

/// The number of adjoints of \p K's floating-point values that its reverse
/// kernel sums for the host (Core/KernelLaunches.h).
static uint64_t scalarAdjointCount(Function &K) {
  uint64_t Count = 0;
  for (Argument &A : K.args())
    Count +=
        A.getType()->isFloatingPointTy() ? 1 : floatFieldsOfParam(A).size();
  return Count;
}

/// Gives the parameters of \p F, a kernel made for \p K whose parameters
/// are K's and then the shadows of those \p Shadowed says, K's by-value
/// attributes: a struct's shadow is passed by value as well.
static void
copyByValueParameters(Function &K, Function &F,
                      function_ref<bool(const Argument &)> Shadowed) {
  unsigned Shadow = K.arg_size();
  for (Argument &A : K.args()) {
    bool HasShadow = Shadowed(A);
    if (A.hasByValAttr()) {
      AttributeSet Attrs = K.getAttributes().getParamAttrs(A.getArgNo());
      for (unsigned I : {A.getArgNo(), Shadow})
        if (I == A.getArgNo() || HasShadow)
          for (Attribute::AttrKind Kind :
               {Attribute::ByVal, Attribute::Alignment})
            if (Attrs.hasAttribute(Kind))
              F.addParamAttr(I, Attrs.getAttribute(Kind));
    }
    Shadow += HasShadow;
  }
}

/// Keeps \p F's last parameter, the offset of the shadows of `extern
/// __shared__` arrays in dynamic shared memory, in the slot that the
/// functions of the derivative read it from (Plugin/DynamicSharedShadows.cpp),
/// where the module has such arrays.
static void keepDynamicShadowOffset(IRBuilder<> &B, Function &F) {
  Module &M = *F.getParent();
  bool HasStandIns = any_of(M.globals(), [](const GlobalVariable &GV) {
    return isDynamicSharedShadow(GV);
  });
  if (GlobalVariable *Slot = dynamicShadowOffsetSlot(M, HasStandIns))
    B.CreateStore(F.getArg(F.arg_size() - 1), Slot);
}

/// Whether \p Shadows hold the stand-in of a shadow in dynamic shared
/// memory (the launch must double its dynamic bytes).
static bool anyDynamic(ArrayRef<GlobalVariable *> Shadows) {
  return any_of(Shadows,
                [](GlobalVariable *S) { return isDynamicSharedShadow(*S); });
}

namespace {
/// The derivative kernels of one kernel, built around its pair.
class DerivativeKernelBuilder {
public:
  DerivativeKernelBuilder(Function &Kernel, ReverseModeGenerator &Gen)
      : K(Kernel), M(*Kernel.getParent()), Gen(Gen) {}

  void build();

private:
  Function &K;
  Module &M;
  ReverseModeGenerator &Gen;
  ReverseSignature Sig;
  const ReversePair *Pair = nullptr;
  /// Bytes of each thread's slot of the tape buffer.
  uint64_t SlotBytes = 0;

  bool createPair(Function &Body, DifferentiationFailure &Failure);
  Function *createKernel(StringRef Name, ArrayRef<Type *> ExtraParams) {
    SmallVector<Type *, 8> Params(K.getFunctionType()->params());
    for (Argument &A : K.args())
      if (A.getType()->isPointerTy())
        Params.push_back(A.getType());
    Params.append(ExtraParams.begin(), ExtraParams.end());
    Function *F = createKernelBeside(K, Name, Params);
    copyByValueParameters(
        K, *F, [](const Argument &A) { return A.getType()->isPointerTy(); });
    return F;
  }
  Value *threadTapeSlot(IRBuilder<> &B, Value *Tapes);
  bool interleaved() const {
    return Sig.FixedTape && SlotBytes / 8 <= MaxInterleavedWords;
  }
  /// Copies the thread's interleaved tape between the buffer \p Tapes and
  /// \p Local, in the direction \p ToBuffer says.
  void copyInterleaved(IRBuilder<> &B, Value *Tapes, Value *Local,
                       bool ToBuffer);
  uint64_t usedShadows() const;
  void createAugmentedKernel();
  void createReverseKernel();
};
} // namespace

bool DerivativeKernelBuilder::createPair(Function &Body,
                                         DifferentiationFailure &Failure) {
  Sig.Fn = &Body;
  for (Argument &A : Body.args())
    Sig.Args.push_back(A.getType()->isPointerTy()         ? Activity::Dup
                       : A.getType()->isFloatingPointTy() ? Activity::Out
                                                          : Activity::Const);
  // The host may write the kernel's inputs between the two launches.
  Sig.InputsKeptUntilReverse = false;
  // A tape of fixed size sits in the thread's slot; otherwise the slot
  // holds a growable tape's header (the device heap is small and slow).
  ReverseSignature Fixed = Sig;
  Fixed.FixedTape = true;
  DifferentiationFailure NoFixedLayout;
  if ((Pair = Gen.getOrCreate(Fixed, NoFixedLayout))) {
    Sig = Fixed;
    SlotBytes = alignTo(*Gen.fixedTapeBytes(Sig), TapeSlotAlign);
    return true;
  }
  if ((Pair = Gen.getOrCreate(Sig, Failure))) {
    SlotBytes = M.getDataLayout().getPointerSize();
    return true;
  }
  return false;
}

Value *DerivativeKernelBuilder::threadTapeSlot(IRBuilder<> &B, Value *Tapes) {
  return B.CreateGEP(B.getInt8Ty(), Tapes,
                     B.CreateMul(linearThreadIndex(B), B.getInt64(SlotBytes)),
                     "tape.slot");
}

void DerivativeKernelBuilder::copyInterleaved(IRBuilder<> &B, Value *Tapes,
                                              Value *Local, bool ToBuffer) {
  Type *Word = B.getInt64Ty();
  Value *Threads = launchThreads(B), *Thread = linearThreadIndex(B);
  for (uint64_t W = 0; W < SlotBytes / 8; ++W) {
    Value *InBuffer = B.CreateGEP(
        Word, Tapes, B.CreateAdd(B.CreateMul(B.getInt64(W), Threads), Thread));
    Value *InLocal = B.CreateConstInBoundsGEP1_64(Word, Local, W);
    if (ToBuffer)
      B.CreateAlignedStore(B.CreateAlignedLoad(Word, InLocal, Align(8)),
                           InBuffer, Align(8));
    else
      B.CreateAlignedStore(B.CreateAlignedLoad(Word, InBuffer, Align(8)),
                           InLocal, Align(8));
  }
}

/// The arguments of the pair's functions: the kernel's, then its shadows.
static SmallVector<Value *, 8> pairArguments(Function &Kernel, unsigned Count) {
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Count; ++I)
    Args.push_back(Kernel.getArg(I));
  return Args;
}

void DerivativeKernelBuilder::createAugmentedKernel() {
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  Function *F = createKernel(augmentedKernelName(K.getName()),
                             {Ptr, Type::getInt32Ty(M.getContext())});
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.SetCurrentDebugLocation(reportPoint(K).getDebugLoc());
  keepDynamicShadowOffset(B, *F);
  unsigned PairArgs = F->arg_size() - 2;
  Value *Tapes = F->getArg(PairArgs);
  Value *Tape;
  if (interleaved()) {
    Tape = Gen.tape().createFixedTape(*F, SlotBytes, "tape");
  } else if (Sig.FixedTape) {
    Tape = threadTapeSlot(B, Tapes);
  } else {
    Tape = Gen.tape().createHeapTape(B);
    B.CreateStore(Tape, threadTapeSlot(B, Tapes));
  }
  SmallVector<Value *, 8> Args = pairArguments(*F, PairArgs);
  Args.push_back(Tape);
  CallInst *Call = B.CreateCall(Pair->Augmented, Args);
  if (interleaved())
    copyInterleaved(B, Tapes, Tape, /*ToBuffer=*/true);
  B.CreateRetVoid();
  // The pipeline has no inliner after the engine; inlined, the tape can
  // live in registers.
  InlineFunctionInfo Info;
  InlineFunction(*Call, Info);
}

/// The shared-memory shadows that start undefined (GlobalShadows.h) which
/// \p F or a function it calls uses (all of them where it calls through a
/// pointer).
static SmallVector<GlobalVariable *, 4> sharedShadowsUsedBy(Function &F) {
  SetVector<const Function *> Reached;
  Reached.insert(&F);
  bool CallsThroughPointers = false;
  for (unsigned I = 0; I < Reached.size(); ++I)
    for (const Instruction &Inst : instructions(*Reached[I]))
      if (const auto *Call = dyn_cast<CallBase>(&Inst)) {
        const Function *Callee = Call->getCalledFunction();
        CallsThroughPointers |= !Callee && !Call->isInlineAsm();
        if (Callee && !Callee->isDeclaration())
          Reached.insert(Callee);
      }
  auto UsedInReached = [&](GlobalVariable &Shadow) {
    if (CallsThroughPointers)
      return true;
    SmallVector<const User *, 8> Work(Shadow.users());
    SmallPtrSet<const User *, 8> Seen;
    while (!Work.empty()) {
      const User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (const auto *I = dyn_cast<Instruction>(U)) {
        if (Reached.count(I->getFunction()))
          return true;
      } else if (isa<Constant>(U)) {
        Work.append(U->user_begin(), U->user_end());
      }
    }
    return false;
  };
  SmallVector<GlobalVariable *, 4> Shadows;
  for (GlobalVariable &GV : F.getParent()->globals())
    if (shadowStartsUndefined(GV))
      if (GlobalVariable *Shadow = globalShadowOf(GV);
          Shadow && UsedInReached(*Shadow))
        Shadows.push_back(Shadow);
  return Shadows;
}

/// Zeroes \p Shadows, the threads of the block sharing the words, and waits
/// for the block. Shared memory does not outlive a launch: the shadows
/// the augmented kernel zeroed where it wrote are garbage again when the
/// reverse kernel starts, and the reverse pass adds into them.
static void zeroSharedShadows(IRBuilder<> &B,
                              ArrayRef<GlobalVariable *> Shadows) {
  if (Shadows.empty())
    return;
  Function *F = B.GetInsertBlock()->getParent();
  const DataLayout &DL = F->getDataLayout();
  Value *Thread = threadInBlock(B), *Threads = blockSize(B);
  for (GlobalVariable *Shadow : Shadows) {
    // A shadow in dynamic shared memory is as large as the primal data,
    // whose size rounded up to 16 is the offset of the shadows.
    bool Dynamic = isDynamicSharedShadow(*Shadow);
    uint64_t Bytes = Dynamic ? 16 : DL.getTypeAllocSize(Shadow->getValueType());
    // Words of 4 bytes where the size allows (the shadows of float and
    // double arrays), else bytes.
    Type *Word = Bytes % 4 ? B.getInt8Ty() : B.getInt32Ty();
    Value *Words = B.getInt64(Bytes / DL.getTypeAllocSize(Word));
    if (Dynamic)
      Words = B.CreateLShr(
          B.CreateZExt(B.CreateLoad(B.getInt32Ty(),
                                    dynamicShadowOffsetSlot(*F->getParent(),
                                                            /*Create=*/true)),
                       B.getInt64Ty()),
          2);
    BasicBlock *Before = B.GetInsertBlock();
    BasicBlock *Loop = BasicBlock::Create(B.getContext(), "zero.shadow", F);
    BasicBlock *Done = BasicBlock::Create(B.getContext(), "zeroed", F);
    B.CreateCondBr(B.CreateICmpULT(Thread, Words), Loop, Done);
    B.SetInsertPoint(Loop);
    PHINode *Index = B.CreatePHI(B.getInt64Ty(), 2);
    Index->addIncoming(Thread, Before);
    B.CreateStore(Constant::getNullValue(Word),
                  B.CreateGEP(Word, Shadow, Index));
    Value *Next = B.CreateAdd(Index, Threads);
    Index->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateICmpULT(Next, Words), Loop, Done);
    B.SetInsertPoint(Done);
  }
  B.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
}

void DerivativeKernelBuilder::createReverseKernel() {
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  Function *F = createKernel(reverseKernelName(K.getName()),
                             {Ptr, Ptr, Type::getInt32Ty(M.getContext())});
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.SetCurrentDebugLocation(reportPoint(K).getDebugLoc());
  keepDynamicShadowOffset(B, *F);
  unsigned PairArgs = F->arg_size() - 3;
  Value *Scalars = F->getArg(PairArgs), *Tapes = F->getArg(PairArgs + 1);
  Value *Tape;
  if (interleaved()) {
    Tape = Gen.tape().createFixedTape(*F, SlotBytes, "tape");
    copyInterleaved(B, Tapes, Tape, /*ToBuffer=*/false);
  } else if (Sig.FixedTape) {
    Tape = threadTapeSlot(B, Tapes);
  } else {
    Tape = B.CreateLoad(Ptr, threadTapeSlot(B, Tapes), "tape");
  }
  // The reverse pass may also reach a shadow through an address the
  // augmented pass recorded (a pointer into shared memory that unoptimised
  // code passes down to callees, as CUB's agents keep their TempStorage).
  SetVector<GlobalVariable *> Undefined;
  for (Function *Half : {Pair->Augmented, Pair->Reverse})
    for (GlobalVariable *Shadow : sharedShadowsUsedBy(*Half))
      Undefined.insert(Shadow);
  zeroSharedShadows(B, Undefined.getArrayRef());
  SmallVector<Value *, 8> Args = pairArguments(*F, PairArgs);
  // A struct's shadow comes from the host with its pointers' shadows; the
  // thread adds the adjoints of its floats into its own copy, from zero.
  const DataLayout &DL = M.getDataLayout();
  DenseMap<unsigned, AllocaInst *> StructShadows;
  unsigned Shadow = K.arg_size();
  for (Argument &A : K.args()) {
    if (!A.getType()->isPointerTy())
      continue;
    if (A.hasByValAttr()) {
      Type *Ty = A.getParamByValType();
      IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
      AllocaInst *Copy = Entry.CreateAlloca(Ty, nullptr, "struct.shadow");
      Align Alignment = DL.getABITypeAlign(Ty);
      Copy->setAlignment(Alignment);
      B.CreateMemCpy(Copy, Alignment, F->getArg(Shadow), Alignment,
                     DL.getTypeAllocSize(Ty));
      for (const FloatField &Field : floatFieldsOfParam(A))
        B.CreateStore(
            Constant::getNullValue(Field.Ty),
            B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Copy, Field.Offset));
      Args[Shadow] = Copy;
      StructShadows[A.getArgNo()] = Copy;
    }
    ++Shadow;
  }
  Args.push_back(Tape);
  CallInst *Grads = B.CreateCall(Pair->Reverse, Args);
  // The adjoints of by-value parameters (and of structs' floats) are the
  // sums over all threads: a warp sums its lanes' first, and blocks take
  // turns among the replicas of each (the host adds them up). The buffer
  // is the host's.
  SmallVector<Value *, 4> Returned =
      structFields(B, Grads->getType()->isVoidTy() ? nullptr : Grads);
  SmallVector<Value *, 4> Adjoints;
  unsigned NextReturned = 0;
  for (Argument &A : K.args()) {
    if (A.getType()->isFloatingPointTy())
      Adjoints.push_back(Returned[NextReturned++]);
    for (const FloatField &Field : floatFieldsOfParam(A))
      Adjoints.push_back(B.CreateLoad(
          Field.Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(),
                                                 StructShadows[A.getArgNo()],
                                                 Field.Offset)));
  }
  Value *Global = B.CreateAddrSpaceCast(Scalars, B.getPtrTy(1));
  Value *Replica =
      B.CreateURem(linearBlockIndex(B), B.getInt64(ScalarAdjointReplicas));
  Type *Double = B.getDoubleTy();
  for (auto [Index, Adjoint] : enumerate(Adjoints)) {
    Value *Slot = B.CreateGEP(
        Double, Global,
        B.CreateAdd(B.getInt64(Index * ScalarAdjointReplicas), Replica));
    accumulateAdjoint(B, Double, Slot, B.CreateFPExt(Adjoint, Double), Align(8),
                      /*Atomic=*/true);
  }
  if (!Sig.FixedTape)
    Gen.tape().destroyHeapTape(B, Tape);
  B.CreateRetVoid();
  InlineFunctionInfo Info;
  InlineFunction(*Grads, Info);
}

/// \p Shadow reaches memory in its function: an access through it, a call
/// that takes it, or a store of it somewhere. Address arithmetic whose
/// result goes nowhere (dead code of the unoptimised pair) does not count.
static bool reachesMemory(Argument &Shadow) {
  SmallVector<const Value *, 8> Work = {&Shadow};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<GetElementPtrInst>(U) || isa<CastInst>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      if (const auto *Load = dyn_cast<LoadInst>(U)) {
        if (!Load->use_empty())
          return true;
        continue;
      }
      if (isa<CmpInst>(U))
        continue;
      return true;
    }
  }
  return false;
}

/// Bit I: the pair reads or writes through the shadow of parameter I, so
/// the launch must pass one.
uint64_t DerivativeKernelBuilder::usedShadows() const {
  uint64_t Used = 0;
  unsigned Shadow = K.arg_size();
  for (Argument &A : K.args()) {
    if (!A.getType()->isPointerTy())
      continue;
    if (A.getArgNo() < 64 && (!A.hasByValAttr() || holdsPointers(A)) &&
        (reachesMemory(*Pair->Augmented->getArg(Shadow)) ||
         reachesMemory(*Pair->Reverse->getArg(Shadow))))
      Used |= uint64_t(1) << A.getArgNo();
    ++Shadow;
  }
  return Used;
}

/// `Name = {SlotBytes, UsedShadows, ScalarAdjoints, DynamicShadows}` in
/// \p K's device code, which the host reads before its first launch.
static void createKernelInfo(Function &K, StringRef Name, uint64_t SlotBytes,
                             uint64_t UsedShadows, uint64_t ScalarAdjoints,
                             bool DynamicShadows) {
  Module &M = *K.getParent();
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto *Ty = ArrayType::get(I64, 4);
  Constant *Init = ConstantArray::get(
      Ty, {ConstantInt::get(I64, SlotBytes), ConstantInt::get(I64, UsedShadows),
           ConstantInt::get(I64, ScalarAdjoints),
           ConstantInt::get(I64, DynamicShadows)});
  auto *Info =
      new GlobalVariable(M, Ty, /*isConstant=*/false,
                         K.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                             : GlobalValue::WeakODRLinkage,
                         Init, Name, nullptr, GlobalValue::NotThreadLocal,
                         /*AddressSpace=*/1);
  Info->setAlignment(Align(8));
  appendToCompilerUsed(M, {Info});
}

/// Reports that \p K cannot be differentiated in the mode whose kernels
/// are \p Kernels (described by the info \p InfoName): an error where the
/// driver listed it for a launch that needs them, a warning where it is
/// listed only in case (\p Optional: a launcher registration's forward
/// mode, another file's launch). Then empty kernels stand in for them, as
/// the host registers them whatever happens here, and the info
/// (KernelUnavailable) keeps them from being launched.
static void reportUndifferentiable(Function &K, StringRef Mode,
                                   const DifferentiationFailure &Failure,
                                   bool Optional, ArrayRef<std::string> Kernels,
                                   StringRef InfoName) {
  std::string Reason =
      Failure.Message.empty() ? "it cannot be differentiated" : Failure.Message;
  std::string Message = "cannot differentiate kernel '" +
                        displayName(K.getName()) + "'" + Mode.str();
  if (!Optional) {
    reportError(reportPoint(K),
                Message +
                    ", which differentiated host code launches: " + Reason,
                Failure.OffendingLocation);
    return;
  }
  if (isRelocatableKernel(K.getName()))
    Message += ", which host code in other files may launch (relocatable "
               "device code): " +
               Reason +
               "; differentiated host code that launches it stops with a "
               "message";
  else
    Message += ", which differentiated host code launches: " + Reason +
               "; only reverse mode can differentiate the launchers that "
               "name it";
  reportWarning(reportPoint(K), Message, Failure.OffendingLocation);
  for (const std::string &Name : Kernels) {
    Function *StandIn = createKernelBeside(
        K, Name, SmallVector<Type *, 8>(K.getFunctionType()->params()));
    copyByValueParameters(K, *StandIn, [](const Argument &) { return false; });
    ReturnInst::Create(K.getContext(),
                       BasicBlock::Create(K.getContext(), "entry", StandIn));
  }
  createKernelInfo(K, InfoName, KernelUnavailable, 0, 0, false);
}

void DerivativeKernelBuilder::build() {
  DifferentiationFailure Failure;
  Failure.Message = unsupportedParameterReason(K);
  Function *Body = nullptr;
  if (Failure.Message.empty()) {
    Body = cloneKernelBody(K, ".enzyme.body");
    if (!createPair(*Body, Failure)) {
      Body->eraseFromParent();
      Body = nullptr;
    }
  }
  if (!Body) {
    reportUndifferentiable(
        K, "", Failure, isOptionalDerivativeKernel(K.getName()),
        {augmentedKernelName(K.getName()), reverseKernelName(K.getName())},
        kernelInfoName(K.getName()));
    return;
  }
  createAugmentedKernel();
  createReverseKernel();
  createKernelInfo(K, kernelInfoName(K.getName()), SlotBytes, usedShadows(),
                   scalarAdjointCount(K),
                   anyDynamic(sharedShadowsUsedBy(*Pair->Augmented)) ||
                       anyDynamic(sharedShadowsUsedBy(*Pair->Reverse)));
}

void createKernelDerivatives(Module &M, ReverseModeGenerator &Gen) {
  SmallVector<Function *, 4> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isDerivativeKernel(F.getName()) &&
        isCudaKernel(F) && !M.getFunction(augmentedKernelName(F.getName())))
      Kernels.push_back(&F);
  for (Function *K : Kernels)
    DerivativeKernelBuilder(*K, Gen).build();
}

/// The tangent kernel of \p K: its body's forward-mode derivative, which
/// computes the primal and the tangents of every pointer and floating-point
/// parameter (Core/KernelLaunches.h). Forward mode records nothing, so the
/// kernel needs no tape. A kernel that only a launcher registration lists
/// (optional) and forward mode cannot differentiate gets a warning and an
/// info that stops its forward launches.
/// \p A, a kernel's parameter, has a tangent in its tangent kernel.
static bool hasTangent(const Argument &A) {
  return A.getType()->isPointerTy() || A.getType()->isFloatingPointTy();
}

static void createTangentKernel(Function &K, ForwardModeGenerator &Gen) {
  auto Fail = [&](const DifferentiationFailure &Failure) {
    reportUndifferentiable(
        K, " in forward mode", Failure, isOptionalTangentKernel(K.getName()),
        {tangentKernelName(K.getName())}, tangentKernelInfoName(K.getName()));
  };
  DifferentiationFailure Failure;
  if (Failure.Message = unsupportedParameterReason(K); !Failure.Message.empty())
    return Fail(Failure);
  Function *Body = cloneKernelBody(K, ".enzyme.tangent.body");
  ForwardSignature Sig;
  Sig.Fn = Body;
  for (Argument &A : Body->args())
    Sig.Args.push_back(hasTangent(A) ? Activity::Dup : Activity::Const);
  Function *Tangent = Gen.getOrCreate(Sig, Failure);
  if (!Tangent) {
    Body->eraseFromParent();
    return Fail(Failure);
  }
  // Bit I: the tangent reads or writes through parameter I's shadow.
  uint64_t Used = 0;
  unsigned Shadow = K.arg_size();
  for (Argument &A : K.args()) {
    if (!hasShadow(Sig.Args[A.getArgNo()]))
      continue;
    if (A.getType()->isPointerTy() && A.getArgNo() < 64 &&
        (!A.hasByValAttr() || holdsPointers(A)) &&
        reachesMemory(*Tangent->getArg(Shadow)))
      Used |= uint64_t(1) << A.getArgNo();
    ++Shadow;
  }
  SmallVector<Type *, 8> Params(Tangent->getFunctionType()->params());
  Params.push_back(Type::getInt32Ty(K.getContext()));
  Function *F = createKernelBeside(K, tangentKernelName(K.getName()), Params);
  copyByValueParameters(K, *F, hasTangent);
  IRBuilder<> B(BasicBlock::Create(F->getContext(), "entry", F));
  B.SetCurrentDebugLocation(reportPoint(K).getDebugLoc());
  keepDynamicShadowOffset(B, *F);
  SmallVector<Value *, 8> Args;
  for (Argument &A : F->args())
    if (A.getArgNo() + 1 < F->arg_size())
      Args.push_back(&A);
  CallInst *Call = B.CreateCall(Tangent, Args);
  B.CreateRetVoid();
  InlineFunctionInfo Info;
  InlineFunction(*Call, Info);
  createKernelInfo(K, tangentKernelInfoName(K.getName()), 0, Used, 0,
                   anyDynamic(sharedShadowsUsedBy(*Tangent)));
}

void createTangentKernels(Module &M, ForwardModeGenerator &Gen) {
  SmallVector<Function *, 4> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isTangentKernel(F.getName()) && isCudaKernel(F) &&
        !M.getFunction(tangentKernelName(F.getName())))
      Kernels.push_back(&F);
  for (Function *K : Kernels)
    createTangentKernel(*K, Gen);
}

} // namespace enzyme
