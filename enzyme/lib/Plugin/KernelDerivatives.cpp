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
/// thread with its own slot of a tape buffer the host allocates. The tape is
/// fixed in size where the body allows (the slot holds it) and otherwise
/// grows on the device heap (the slot holds its header). The inputs may
/// change between the launches (host code often swaps buffers), so the
/// augmented kernel records what the reverse one needs.
///
//===----------------------------------------------------------------------===//

#include "Plugin/LaunchDerivatives.h"

#include "Plugin/LoweringSupport.h"

#include "Core/Activity.h"
#include "Core/Diagnostics.h"
#include "Core/DifferentiationFailure.h"
#include "Core/KernelLaunches.h"
#include "Modes/ReverseModeGenerator.h"
#include "Modes/SharedAdjoints.h"

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

/// The thread's index in the whole launch, x fastest (as the host counts
/// the launch's threads).
static Value *linearThreadIndex(IRBuilder<> &B) {
  auto Read = [&](Intrinsic::ID ID) {
    return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), B.getInt64Ty());
  };
  auto Linear = [&](Intrinsic::ID X, Intrinsic::ID Y, Intrinsic::ID Z,
                    Intrinsic::ID NX, Intrinsic::ID NY) {
    Value *Row = B.CreateAdd(B.CreateMul(Read(Z), Read(NY)), Read(Y));
    return B.CreateAdd(B.CreateMul(Row, Read(NX)), Read(X));
  };
  using namespace Intrinsic;
  Value *Block = Linear(nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                        nvvm_read_ptx_sreg_ctaid_z, nvvm_read_ptx_sreg_nctaid_x,
                        nvvm_read_ptx_sreg_nctaid_y);
  Value *Thread = Linear(nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y,
                         nvvm_read_ptx_sreg_tid_z, nvvm_read_ptx_sreg_ntid_x,
                         nvvm_read_ptx_sreg_ntid_y);
  Value *BlockSize = B.CreateMul(B.CreateMul(Read(nvvm_read_ptx_sreg_ntid_x),
                                             Read(nvvm_read_ptx_sreg_ntid_y)),
                                 Read(nvvm_read_ptx_sreg_ntid_z));
  return B.CreateAdd(B.CreateMul(Block, BlockSize), Thread);
}

/// The first instruction of \p K's own code (not inlined into it), where
/// errors about it are reported.
static const Instruction &reportPoint(const Function &K) {
  for (const Instruction &I : instructions(K))
    if (I.getDebugLoc() && !I.getDebugLoc().getInlinedAt())
      return I;
  return *K.getEntryBlock().begin();
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

  bool createPair(Function &Body);
  Function *createKernel(StringRef Name, ArrayRef<Type *> ExtraParams);
  Value *threadTapeSlot(IRBuilder<> &B, Value *Tapes);
  uint64_t usedShadows() const;
  void createAugmentedKernel();
  void createReverseKernel();
  void createInfo();
};
} // namespace

bool DerivativeKernelBuilder::createPair(Function &Body) {
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
  DifferentiationFailure Failure;
  if ((Pair = Gen.getOrCreate(Sig, Failure))) {
    SlotBytes = M.getDataLayout().getPointerSize();
    return true;
  }
  reportError(reportPoint(K),
              "cannot differentiate kernel '" + displayName(K.getName()) +
                  "', which differentiated host code launches: " +
                  (Failure.Message.empty() ? "it cannot be differentiated"
                                           : Failure.Message),
              Failure.OffendingLocation);
  return false;
}

Function *DerivativeKernelBuilder::createKernel(StringRef Name,
                                                ArrayRef<Type *> ExtraParams) {
  SmallVector<Type *, 8> Params(K.getFunctionType()->params());
  for (Argument &A : K.args())
    if (A.getType()->isPointerTy())
      Params.push_back(A.getType());
  Params.append(ExtraParams.begin(), ExtraParams.end());
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

Value *DerivativeKernelBuilder::threadTapeSlot(IRBuilder<> &B, Value *Tapes) {
  return B.CreateGEP(B.getInt8Ty(), Tapes,
                     B.CreateMul(linearThreadIndex(B), B.getInt64(SlotBytes)),
                     "tape.slot");
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
  Function *F = createKernel(augmentedKernelName(K.getName()), {Ptr});
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.SetCurrentDebugLocation(reportPoint(K).getDebugLoc());
  unsigned PairArgs = F->arg_size() - 1;
  Value *Slot = threadTapeSlot(B, F->getArg(PairArgs));
  Value *Tape = Slot;
  if (!Sig.FixedTape) {
    Tape = Gen.tape().createHeapTape(B);
    B.CreateStore(Tape, Slot);
  }
  SmallVector<Value *, 8> Args = pairArguments(*F, PairArgs);
  Args.push_back(Tape);
  B.CreateCall(Pair->Augmented, Args);
  B.CreateRetVoid();
}

void DerivativeKernelBuilder::createReverseKernel() {
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  Function *F = createKernel(reverseKernelName(K.getName()), {Ptr, Ptr});
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.SetCurrentDebugLocation(reportPoint(K).getDebugLoc());
  unsigned PairArgs = F->arg_size() - 2;
  Value *Scalars = F->getArg(PairArgs);
  Value *Slot = threadTapeSlot(B, F->getArg(PairArgs + 1));
  Value *Tape = Sig.FixedTape ? Slot : B.CreateLoad(Ptr, Slot, "tape");
  SmallVector<Value *, 8> Args = pairArguments(*F, PairArgs);
  Args.push_back(Tape);
  CallInst *Grads = B.CreateCall(Pair->Reverse, Args);
  // The adjoints of by-value parameters are the sums over all threads (a
  // warp sums its lanes' first). The buffer is the host's cudaMalloc.
  SmallVector<Value *, 4> Fields =
      structFields(B, Grads->getType()->isVoidTy() ? nullptr : Grads);
  Value *Global = B.CreateAddrSpaceCast(Scalars, B.getPtrTy(1));
  for (auto [Index, Grad] : enumerate(Fields))
    accumulateAdjoint(B, Grad->getType(),
                      B.CreateConstGEP1_64(B.getInt8Ty(), Global, 8 * Index),
                      Grad, Align(8), /*Atomic=*/true);
  if (!Sig.FixedTape)
    Gen.tape().destroyHeapTape(B, Tape);
  B.CreateRetVoid();
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
    if (A.getArgNo() < 64 && (reachesMemory(*Pair->Augmented->getArg(Shadow)) ||
                              reachesMemory(*Pair->Reverse->getArg(Shadow))))
      Used |= uint64_t(1) << A.getArgNo();
    ++Shadow;
  }
  return Used;
}

void DerivativeKernelBuilder::createInfo() {
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto *Ty = ArrayType::get(I64, 2);
  Constant *Init =
      ConstantArray::get(Ty, {ConstantInt::get(I64, SlotBytes),
                              ConstantInt::get(I64, usedShadows())});
  auto *Info =
      new GlobalVariable(M, Ty, /*isConstant=*/false,
                         K.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                             : GlobalValue::WeakODRLinkage,
                         Init, kernelInfoName(K.getName()), nullptr,
                         GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
  Info->setAlignment(Align(8));
  appendToCompilerUsed(M, {Info});
}

void DerivativeKernelBuilder::build() {
  if (std::optional<unsigned> Bad = unsupportedKernelParameter(K)) {
    reportError(reportPoint(K),
                "cannot differentiate kernel '" + displayName(K.getName()) +
                    "', which differentiated host code launches: its "
                    "parameter " +
                    Twine(*Bad + 1) +
                    " is passed by value as a struct or vector; derivative "
                    "kernels take pointers, integers, float and double "
                    "(pass other values through a pointer)");
    return;
  }
  // A kernel is an entry point; the pair is made of a device function.
  ValueToValueMapTy VMap;
  Function *Body = CloneFunction(&K, VMap);
  Body->setName(K.getName() + ".enzyme.body");
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setCallingConv(CallingConv::C);
  if (!createPair(*Body)) {
    Body->eraseFromParent();
    return;
  }
  createAugmentedKernel();
  createReverseKernel();
  createInfo();
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

} // namespace enzyme
