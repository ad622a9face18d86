//===- DeviceCalls.cpp - Device intrinsics and runtime calls on the host --===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every call in device code either runs as it is on the host (generic LLVM
/// intrinsics, `malloc`, libdevice functions the runtime defines), becomes a
/// call into the emulation runtime (special registers, barriers, warp
/// collectives, `vprintf`), becomes plain IR (scoped atomics, `__ldg`,
/// fences), or is an error naming the feature: a program that runs but
/// computes something else would be worse than one that does not build.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "../EmulationAbi.h"

#include "Core/InlineAsmOperands.h"
#include "Core/PtxStatements.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace enzyme::cuda_emulation {

namespace {

/// The libdevice functions the runtime defines.
const StringSet<> &libdeviceFunctions() {
  static const StringSet<> Names = {
#define ENZYME_LIBDEVICE_FUNCTION(Name) #Name,
#include "../LibdeviceFunctions.def"
#undef ENZYME_LIBDEVICE_FUNCTION
  };
  return Names;
}

/// Why a declaration cannot be called under emulation, for the functions
/// whose names tell more than "no definition".
std::optional<StringRef> unsupportedRuntimeFeature(StringRef Name) {
  // With relocatable device code, CUDA's headers name the device runtime's
  // functions `__cudaCDP2...`.
  StringRef Api = Name;
  Api.consume_front("__cudaCDP2");
  if (Name.starts_with("cudaLaunchDevice") ||
      Name.starts_with("cudaGetParameterBuffer") ||
      (Api != Name && (Api.starts_with("LaunchDevice") ||
                       Api.starts_with("GetParameterBuffer"))))
    return StringRef("dynamic parallelism (a kernel launched from device "
                     "code)");
  if (Api != Name)
    return StringRef("the CUDA runtime API in device code (cudadevrt)");
  if (Name == "cudaCGGetIntrinsicHandle" || Name == "cudaCGSynchronizeGrid" ||
      Name.starts_with("__cudaCGS"))
    return StringRef("grid-wide cooperative-groups synchronisation");
  return std::nullopt;
}

/// The special registers the `llvm.nvvm.read.ptx.sreg.*` intrinsics read.
static std::optional<EnzymeCudaEmuRegister> specialRegister(Intrinsic::ID ID) {
  switch (ID) {
#define REGISTER(Name, Value)                                                  \
  case Intrinsic::nvvm_read_ptx_sreg_##Name:                                   \
    return EnzymeCudaEmu##Value;
    REGISTER(tid_x, TidX)
    REGISTER(tid_y, TidY)
    REGISTER(tid_z, TidZ)
    REGISTER(ntid_x, NTidX)
    REGISTER(ntid_y, NTidY)
    REGISTER(ntid_z, NTidZ)
    REGISTER(ctaid_x, CtaIdX)
    REGISTER(ctaid_y, CtaIdY)
    REGISTER(ctaid_z, CtaIdZ)
    REGISTER(nctaid_x, NCtaIdX)
    REGISTER(nctaid_y, NCtaIdY)
    REGISTER(nctaid_z, NCtaIdZ)
    REGISTER(laneid, LaneId)
    REGISTER(warpid, WarpId)
    REGISTER(nwarpid, NWarpId)
    REGISTER(warpsize, WarpSize)
    REGISTER(lanemask_eq, LaneMaskEq)
    REGISTER(lanemask_lt, LaneMaskLt)
    REGISTER(lanemask_le, LaneMaskLe)
    REGISTER(lanemask_gt, LaneMaskGt)
    REGISTER(lanemask_ge, LaneMaskGe)
    REGISTER(smid, SmId)
    REGISTER(nsmid, NSmId)
#undef REGISTER
  default:
    return std::nullopt;
  }
}

/// `shfl[.sync].<mode>.{i32,f32}[p]`: the mode, whether a member mask comes
/// first, and whether the PTX predicate is returned beside the value.
struct ShuffleForm {
  EnzymeCudaEmuShuffleMode Mode;
  bool Sync;
  bool WithPredicate;
};

static std::optional<ShuffleForm> shuffleForm(Intrinsic::ID ID) {
  switch (ID) {
#define SHUFFLE(Mode, Value)                                                   \
  case Intrinsic::nvvm_shfl_sync_##Mode##_i32:                                 \
  case Intrinsic::nvvm_shfl_sync_##Mode##_f32:                                 \
    return ShuffleForm{EnzymeCudaEmuShuffle##Value, true, false};              \
  case Intrinsic::nvvm_shfl_sync_##Mode##_i32p:                                \
  case Intrinsic::nvvm_shfl_sync_##Mode##_f32p:                                \
    return ShuffleForm{EnzymeCudaEmuShuffle##Value, true, true};               \
  /* The shuffles without a mask (before Volta) act on the whole warp. */      \
  case Intrinsic::nvvm_shfl_##Mode##_i32:                                      \
  case Intrinsic::nvvm_shfl_##Mode##_f32:                                      \
    return ShuffleForm{EnzymeCudaEmuShuffle##Value, false, false};             \
  case Intrinsic::nvvm_shfl_##Mode##_i32p:                                     \
  case Intrinsic::nvvm_shfl_##Mode##_f32p:                                     \
    return ShuffleForm{EnzymeCudaEmuShuffle##Value, false, true};
    SHUFFLE(idx, Idx)
    SHUFFLE(up, Up)
    SHUFFLE(down, Down)
    SHUFFLE(bfly, Bfly)
#undef SHUFFLE
  default:
    return std::nullopt;
  }
}

/// `vote[.sync].<mode>`: the mode and whether a member mask comes first.
struct VoteForm {
  EnzymeCudaEmuVoteMode Mode;
  bool Sync;
};

static std::optional<VoteForm> voteForm(Intrinsic::ID ID) {
  switch (ID) {
#define VOTE(Mode, Value)                                                      \
  case Intrinsic::nvvm_vote_##Mode##_sync:                                     \
    return VoteForm{EnzymeCudaEmuVote##Value, true};                           \
  case Intrinsic::nvvm_vote_##Mode:                                            \
    return VoteForm{EnzymeCudaEmuVote##Value, false};
    VOTE(all, All)
    VOTE(any, Any)
    VOTE(uni, Uni)
    VOTE(ballot, Ballot)
#undef VOTE
  default:
    return std::nullopt;
  }
}

class DeviceCallLowering {
public:
  DeviceCallLowering(Module &M, DiagnosticList &Diags,
                     SmallSetVector<GlobalValue *, 4> *OtherFiles)
      : M(M), Diags(Diags), OtherFiles(OtherFiles), Ctx(M.getContext()),
        I1(Type::getInt1Ty(Ctx)), I32(Type::getInt32Ty(Ctx)),
        I64(Type::getInt64Ty(Ctx)), Ptr(PointerType::getUnqual(Ctx)),
        Void(Type::getVoidTy(Ctx)) {}

  void run();

private:
  void lowerCall(CallBase &Call);
  void lowerInlineAsm(CallBase &Call, const InlineAsm &Asm);
  void lowerDeclarationCall(CallBase &Call, Function &Callee);
  /// Returns false when \p Call is an NVPTX intrinsic the emulator lacks.
  bool lowerNvvmIntrinsic(CallInst &Call, Intrinsic::ID ID);
  bool lowerScopedAtomic(CallInst &Call, StringRef Name);

  FunctionCallee runtime(StringRef Name, Type *Result, ArrayRef<Type *> Params);
  Value *readRegister(IRBuilder<> &B, EnzymeCudaEmuRegister Register);
  Value *shuffle(IRBuilder<> &B, CallInst &Call, const ShuffleForm &Form);
  Value *vote(IRBuilder<> &B, CallInst &Call, EnzymeCudaEmuVoteMode Mode,
              bool Sync);
  void replace(CallInst &Call, Value *With);
  /// Whether \p Address is in the space the `nvvm_isspacep_*` intrinsic
  /// \p ID names.
  Value *addressSpaceQuery(IRBuilder<> &B, Intrinsic::ID ID, Value *Address);
  Value *inConstantMemory(IRBuilder<> &B, Value *Address);

  Module &M;
  DiagnosticList &Diags;
  /// Where device functions of other files go, with relocatable device
  /// code; null without.
  SmallSetVector<GlobalValue *, 4> *OtherFiles;
  LLVMContext &Ctx;
  Type *I1, *I32, *I64, *Ptr, *Void;
};

} // namespace

FunctionCallee runtimeFunction(Module &M, StringRef Name, Type *Result,
                               ArrayRef<Type *> Params) {
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, FunctionType::get(Result, Params, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee()))
    F->addFnAttr(Attribute::NoUnwind);
  return Callee;
}

std::pair<Value *, Value *> emitShuffle(IRBuilderBase &B, unsigned Mode,
                                        Value *Mask, Value *Bits, Value *Lane,
                                        Value *Clamp) {
  Type *I32 = B.getInt32Ty();
  Value *Packed = B.CreateCall(
      runtimeFunction(*B.GetInsertBlock()->getModule(), "__cudaemu_shuffle",
                      B.getInt64Ty(), {I32, I32, I32, I32, I32}),
      {B.getInt32(Mode), Mask, Bits, Lane, Clamp});
  return {B.CreateTrunc(Packed, I32),
          B.CreateTrunc(B.CreateLShr(Packed, 32), B.getInt1Ty())};
}

FunctionCallee DeviceCallLowering::runtime(StringRef Name, Type *Result,
                                           ArrayRef<Type *> Params) {
  return runtimeFunction(M, Name, Result, Params);
}

Value *DeviceCallLowering::readRegister(IRBuilder<> &B,
                                        EnzymeCudaEmuRegister Register) {
  return B.CreateCall(runtime("__cudaemu_read_register", I32, {I32}),
                      {B.getInt32(Register)});
}

void DeviceCallLowering::replace(CallInst &Call, Value *With) {
  if (With && !Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(With);
  Call.eraseFromParent();
}

/// `shfl[.sync].mode.{i32,f32}[p]`: the runtime exchanges 32-bit lanes and
/// returns the PTX predicate beside the value.
Value *DeviceCallLowering::shuffle(IRBuilder<> &B, CallInst &Call,
                                   const ShuffleForm &Form) {
  unsigned First = Form.Sync ? 1 : 0;
  Value *Mask = Form.Sync ? Call.getArgOperand(0) : B.getInt32(0xffffffff);
  Value *Operand = Call.getArgOperand(First);
  Type *ValueType = Operand->getType();
  auto [Received, Predicate] =
      emitShuffle(B, Form.Mode, Mask, B.CreateBitCast(Operand, I32),
                  Call.getArgOperand(First + 1), Call.getArgOperand(First + 2));
  Value *Result = B.CreateBitCast(Received, ValueType);
  if (!Form.WithPredicate)
    return Result;
  Value *Pair =
      B.CreateInsertValue(PoisonValue::get(Call.getType()), Result, 0);
  return B.CreateInsertValue(Pair, Predicate, 1);
}

Value *DeviceCallLowering::vote(IRBuilder<> &B, CallInst &Call,
                                EnzymeCudaEmuVoteMode Mode, bool Sync) {
  Value *Mask = Sync ? Call.getArgOperand(0) : B.getInt32(0xffffffff);
  Value *Predicate = B.CreateZExt(Call.getArgOperand(Sync ? 1 : 0), I32);
  Value *Result = B.CreateCall(runtime("__cudaemu_vote", I32, {I32, I32, I32}),
                               {B.getInt32(Mode), Mask, Predicate});
  return Mode == EnzymeCudaEmuVoteBallot ? Result : B.CreateTrunc(Result, I1);
}

/// `llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>`: the host has one scope, so
/// these are ordinary atomics.
bool DeviceCallLowering::lowerScopedAtomic(CallInst &Call, StringRef Name) {
  if (!Name.consume_front("llvm.nvvm.atomic."))
    return false;
  StringRef Op = Name.split('.').first;
  IRBuilder<> B(&Call);
  Value *Address = Call.getArgOperand(0);
  if (Op == "cas") {
    auto *Exchange = B.CreateAtomicCmpXchg(
        Address, Call.getArgOperand(1), Call.getArgOperand(2), MaybeAlign(),
        AtomicOrdering::Monotonic, AtomicOrdering::Monotonic);
    replace(Call, B.CreateExtractValue(Exchange, 0));
    return true;
  }
  bool Float = Name.contains(".gen.f.");
  std::optional<AtomicRMWInst::BinOp> Kind =
      StringSwitch<std::optional<AtomicRMWInst::BinOp>>(Op)
          .Case("add", Float ? AtomicRMWInst::FAdd : AtomicRMWInst::Add)
          .Case("exch", AtomicRMWInst::Xchg)
          .Case("max", AtomicRMWInst::Max)
          .Case("min", AtomicRMWInst::Min)
          .Case("inc", AtomicRMWInst::UIncWrap)
          .Case("dec", AtomicRMWInst::UDecWrap)
          .Case("and", AtomicRMWInst::And)
          .Case("or", AtomicRMWInst::Or)
          .Case("xor", AtomicRMWInst::Xor)
          .Default(std::nullopt);
  if (!Kind)
    return false;
  replace(Call, B.CreateAtomicRMW(*Kind, Address, Call.getArgOperand(1),
                                  MaybeAlign(), AtomicOrdering::Monotonic));
  return true;
}

/// The device thread's stack is its local memory and the running block's
/// buffer its shared memory (the runtime knows both); `__constant__`
/// variables stay in their address space, so the module knows their
/// addresses; the rest, device allocations and `__device__` variables, is
/// global memory.
Value *DeviceCallLowering::inConstantMemory(IRBuilder<> &B, Value *Address) {
  Value *In = B.getFalse();
  Value *At = B.CreatePtrToInt(Address, I64);
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != 4 || G.isDeclaration())
      continue;
    Value *Start = B.CreatePtrToInt(&G, I64);
    Value *End =
        B.CreateAdd(Start, B.getInt64(DL.getTypeAllocSize(G.getValueType())));
    In = B.CreateOr(
        In, B.CreateAnd(B.CreateICmpUGE(At, Start), B.CreateICmpULT(At, End)));
  }
  return In;
}

Value *DeviceCallLowering::addressSpaceQuery(IRBuilder<> &B, Intrinsic::ID ID,
                                             Value *Address) {
  auto Ask = [&](StringRef Name) {
    return B.CreateICmpNE(B.CreateCall(runtime(Name, I32, {Ptr}), {Address}),
                          B.getInt32(0));
  };
  switch (ID) {
  case Intrinsic::nvvm_isspacep_local:
    return Ask("__cudaemu_is_local");
  case Intrinsic::nvvm_isspacep_shared:
    return Ask("__cudaemu_is_shared");
  case Intrinsic::nvvm_isspacep_const:
    return inConstantMemory(B, Address);
  default:
    return B.CreateNot(B.CreateOr(
        B.CreateOr(Ask("__cudaemu_is_local"), Ask("__cudaemu_is_shared")),
        inConstantMemory(B, Address)));
  }
}

bool DeviceCallLowering::lowerNvvmIntrinsic(CallInst &Call, Intrinsic::ID ID) {
  IRBuilder<> B(&Call);
  auto Register = [&](EnzymeCudaEmuRegister R) {
    replace(Call, readRegister(B, R));
    return true;
  };
  auto Barrier = [&](EnzymeCudaEmuBarrierKind Kind, Value *Predicate) {
    Value *Result = B.CreateCall(
        runtime("__cudaemu_barrier", I32, {I32, I32}),
        {B.getInt32(Kind),
         Predicate ? B.CreateZExtOrTrunc(Predicate, I32) : B.getInt32(0)});
    replace(Call, Result);
    return true;
  };
  auto Redux = [&](EnzymeCudaEmuReduxOp Op) {
    // The intrinsic takes the value first and the member mask second.
    replace(Call, B.CreateCall(runtime("__cudaemu_redux", I32, {I32, I32, I32}),
                               {B.getInt32(Op), Call.getArgOperand(1),
                                Call.getArgOperand(0)}));
    return true;
  };
  auto Match = [&](bool All) {
    Value *Packed =
        B.CreateCall(runtime("__cudaemu_match", I64, {I32, I32, I64}),
                     {B.getInt32(All), Call.getArgOperand(0),
                      B.CreateZExt(Call.getArgOperand(1), I64)});
    Value *Mask = B.CreateTrunc(Packed, I32);
    if (!All) {
      replace(Call, Mask);
      return true;
    }
    Value *Pair =
        B.CreateInsertValue(PoisonValue::get(Call.getType()), Mask, 0);
    replace(Call, B.CreateInsertValue(
                      Pair, B.CreateTrunc(B.CreateLShr(Packed, 32), I1), 1));
    return true;
  };

  if (std::optional<EnzymeCudaEmuRegister> R = specialRegister(ID))
    return Register(*R);
  if (std::optional<ShuffleForm> Form = shuffleForm(ID)) {
    replace(Call, shuffle(B, Call, *Form));
    return true;
  }
  if (std::optional<VoteForm> Form = voteForm(ID)) {
    replace(Call, vote(B, Call, Form->Mode, Form->Sync));
    return true;
  }

  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_clock:
  case Intrinsic::nvvm_read_ptx_sreg_clock64:
  case Intrinsic::nvvm_read_ptx_sreg_globaltimer: {
    Value *Clock = B.CreateCall(runtime("__cudaemu_clock", I64, {}), {});
    replace(Call, B.CreateZExtOrTrunc(Clock, Call.getType()));
    return true;
  }

  case Intrinsic::nvvm_barrier0:
    return Barrier(EnzymeCudaEmuBarrierPlain, nullptr);
  case Intrinsic::nvvm_barrier0_popc:
    return Barrier(EnzymeCudaEmuBarrierPopc, Call.getArgOperand(0));
  case Intrinsic::nvvm_barrier0_and:
    return Barrier(EnzymeCudaEmuBarrierAnd, Call.getArgOperand(0));
  case Intrinsic::nvvm_barrier0_or:
    return Barrier(EnzymeCudaEmuBarrierOr, Call.getArgOperand(0));
  case Intrinsic::nvvm_barrier_sync:
  case Intrinsic::nvvm_bar_sync: {
    // Barrier 0 for all threads is __syncthreads; named barriers with
    // other ids coordinate subsets of warps, which is not emulated.
    auto *Id = dyn_cast<ConstantInt>(Call.getArgOperand(0));
    if (Id && !Id->isZero())
      return false;
    if (Id)
      return Barrier(EnzymeCudaEmuBarrierPlain, nullptr);
    // An id only known at run time (cooperative groups at -O0): the
    // runtime checks it is 0.
    B.CreateCall(runtime("__cudaemu_barrier_id", Void, {I32}),
                 {Call.getArgOperand(0)});
    replace(Call, nullptr);
    return true;
  }
  case Intrinsic::nvvm_bar_warp_sync:
    B.CreateCall(runtime("__cudaemu_warp_sync", Void, {I32}),
                 {Call.getArgOperand(0)});
    replace(Call, nullptr);
    return true;
  case Intrinsic::nvvm_activemask: {
    // The lanes meet at this call: an address of its own names it.
    auto *Site = new GlobalVariable(M, B.getInt8Ty(), /*isConstant=*/false,
                                    GlobalValue::PrivateLinkage, B.getInt8(0),
                                    "activemask.site");
    replace(Call,
            B.CreateCall(runtime("__cudaemu_active_mask", I32, {Ptr}), {Site}));
    return true;
  }

  case Intrinsic::nvvm_match_any_sync_i32:
  case Intrinsic::nvvm_match_any_sync_i64:
    return Match(false);
  case Intrinsic::nvvm_match_all_sync_i32p:
  case Intrinsic::nvvm_match_all_sync_i64p:
    return Match(true);

  case Intrinsic::nvvm_redux_sync_add:
    return Redux(EnzymeCudaEmuReduxAdd);
  case Intrinsic::nvvm_redux_sync_min:
    return Redux(EnzymeCudaEmuReduxMin);
  case Intrinsic::nvvm_redux_sync_max:
    return Redux(EnzymeCudaEmuReduxMax);
  case Intrinsic::nvvm_redux_sync_umin:
    return Redux(EnzymeCudaEmuReduxUMin);
  case Intrinsic::nvvm_redux_sync_umax:
    return Redux(EnzymeCudaEmuReduxUMax);
  case Intrinsic::nvvm_redux_sync_and:
    return Redux(EnzymeCudaEmuReduxAnd);
  case Intrinsic::nvvm_redux_sync_or:
    return Redux(EnzymeCudaEmuReduxOr);
  case Intrinsic::nvvm_redux_sync_xor:
    return Redux(EnzymeCudaEmuReduxXor);

  case Intrinsic::nvvm_ex2_approx_f:
  case Intrinsic::nvvm_ex2_approx_ftz_f:
  case Intrinsic::nvvm_lg2_approx_f:
  case Intrinsic::nvvm_lg2_approx_ftz_f:
  case Intrinsic::nvvm_sin_approx_f:
  case Intrinsic::nvvm_sin_approx_ftz_f:
  case Intrinsic::nvvm_cos_approx_f:
  case Intrinsic::nvvm_cos_approx_ftz_f: {
    // The approximations (cuda_fp16.h's hexp, hlog, hsin, hcos) as the
    // host computes the functions.
    Intrinsic::ID Exact = ID == Intrinsic::nvvm_ex2_approx_f ||
                                  ID == Intrinsic::nvvm_ex2_approx_ftz_f
                              ? Intrinsic::exp2
                          : ID == Intrinsic::nvvm_lg2_approx_f ||
                                  ID == Intrinsic::nvvm_lg2_approx_ftz_f
                              ? Intrinsic::log2
                          : ID == Intrinsic::nvvm_sin_approx_f ||
                                  ID == Intrinsic::nvvm_sin_approx_ftz_f
                              ? Intrinsic::sin
                              : Intrinsic::cos;
    replace(Call, B.CreateUnaryIntrinsic(Exact, Call.getArgOperand(0)));
    return true;
  }
  case Intrinsic::nvvm_membar_cta:
  case Intrinsic::nvvm_membar_gl:
  case Intrinsic::nvvm_membar_sys:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    replace(Call, nullptr);
    return true;
  case Intrinsic::nvvm_atomic_load_inc_32:
  case Intrinsic::nvvm_atomic_load_dec_32:
    replace(Call,
            B.CreateAtomicRMW(ID == Intrinsic::nvvm_atomic_load_inc_32
                                  ? AtomicRMWInst::UIncWrap
                                  : AtomicRMWInst::UDecWrap,
                              Call.getArgOperand(0), Call.getArgOperand(1),
                              MaybeAlign(), AtomicOrdering::Monotonic));
    return true;
  case Intrinsic::nvvm_ldg_global_i:
  case Intrinsic::nvvm_ldg_global_f:
  case Intrinsic::nvvm_ldg_global_p:
  case Intrinsic::nvvm_ldu_global_i:
  case Intrinsic::nvvm_ldu_global_f:
  case Intrinsic::nvvm_ldu_global_p: {
    // Read-only cache loads are loads.
    auto *Align = cast<ConstantInt>(Call.getArgOperand(1));
    replace(Call, B.CreateAlignedLoad(Call.getType(), Call.getArgOperand(0),
                                      MaybeAlign(Align->getZExtValue())));
    return true;
  }
  case Intrinsic::nvvm_isspacep_local:
  case Intrinsic::nvvm_isspacep_shared:
  case Intrinsic::nvvm_isspacep_const:
  case Intrinsic::nvvm_isspacep_global:
    // A derivative's check before an adjoint update, or the program's
    // __isLocal, __isShared, __isConstant, __isGlobal.
    replace(Call, addressSpaceQuery(B, ID, Call.getArgOperand(0)));
    return true;
  case Intrinsic::nvvm_nanosleep:
    B.CreateCall(runtime("__cudaemu_nanosleep", Void, {I32}),
                 {Call.getArgOperand(0)});
    replace(Call, nullptr);
    return true;
  case Intrinsic::nvvm_reflect:
    // Without libdevice nothing asks; 0 selects the IEEE-conforming paths.
    replace(Call, ConstantInt::get(Call.getType(), 0));
    return true;
  default:
    return lowerScopedAtomic(Call, Call.getCalledFunction()->getName());
  }
}

/// What a device intrinsic is, in words a CUDA programmer recognises.
static std::string describeIntrinsic(StringRef Name) {
  if (Name.starts_with("llvm.nvvm.tex.") ||
      Name.starts_with("llvm.nvvm.tld4") || Name.starts_with("llvm.nvvm.txq."))
    return "texture fetches ('" + Name.str() + "')";
  if (Name.starts_with("llvm.nvvm.suld.") ||
      Name.starts_with("llvm.nvvm.sust.") || Name.starts_with("llvm.nvvm.suq."))
    return "surface accesses ('" + Name.str() + "')";
  if (Name.starts_with("llvm.nvvm.barrier") ||
      Name.starts_with("llvm.nvvm.bar."))
    return "named or counted barriers ('" + Name.str() +
           "'; only __syncthreads and barrier 0 are)";
  if (Name.contains("cluster"))
    return "thread block clusters ('" + Name.str() + "')";
  return "the device intrinsic '" + Name.str() + "'";
}

void DeviceCallLowering::lowerDeclarationCall(CallBase &Call,
                                              Function &Callee) {
  StringRef Name = Callee.getName();
  if (Name == "vprintf") {
    Call.setCalledFunction(runtime("__cudaemu_vprintf", I32, {Ptr, Ptr}));
    return;
  }
  if (Name == "__assertfail") {
    Call.setCalledFunction(
        runtime("__cudaemu_assertfail", Void, {Ptr, Ptr, I32, Ptr, I64}));
    return;
  }
  // The device heap is the host's; string functions are the host's.
  if (Name == "malloc" || Name == "free" || Name == "memcpy" ||
      Name == "memset" || Name == "memmove")
    return;
  if (Name.starts_with("__nv_")) {
    if (!libdeviceFunctions().contains(Name))
      Diags.error(Call,
                  "the libdevice function '" + Name + "' is not emulated");
    return;
  }
  if (std::optional<StringRef> Feature = unsupportedRuntimeFeature(Name)) {
    Diags.error(Call, "CUDA emulation does not support " + *Feature +
                          " (a call to '" + Name + "')");
    return;
  }
  std::string Demangled = demangle(Name.str());
  if (StringRef(Demangled).starts_with("__enzyme_")) {
    Diags.error(Call, "'" + StringRef(Demangled).split('(').first +
                          "' in device code needs -fenzyme to be "
                          "differentiated");
    return;
  }
  if (OtherFiles) {
    OtherFiles->insert(&Callee);
    return;
  }
  Diags.error(Call, "device code calls '" + Demangled +
                        "', which has no definition in this file; define it "
                        "here, or build the files that share device code "
                        "with -fgpu-rdc (relocatable device code)");
}

/// The special registers CUDA's headers read with inline assembly
/// (`mov.u32 $0, %laneid;`).
static std::optional<EnzymeCudaEmuRegister> asmRegister(StringRef Name) {
  return StringSwitch<std::optional<EnzymeCudaEmuRegister>>(Name)
      .Case("laneid", EnzymeCudaEmuLaneId)
      .Case("warpid", EnzymeCudaEmuWarpId)
      .Case("nwarpid", EnzymeCudaEmuNWarpId)
      .Case("lanemask_eq", EnzymeCudaEmuLaneMaskEq)
      .Case("lanemask_lt", EnzymeCudaEmuLaneMaskLt)
      .Case("lanemask_le", EnzymeCudaEmuLaneMaskLe)
      .Case("lanemask_gt", EnzymeCudaEmuLaneMaskGt)
      .Case("lanemask_ge", EnzymeCudaEmuLaneMaskGe)
      .Case("smid", EnzymeCudaEmuSmId)
      .Case("nsmid", EnzymeCudaEmuNSmId)
      .Default(std::nullopt);
}

/// Inline assembly is PTX, which the host cannot run. The few statements
/// CUDA's own headers use for things the emulator has (a trap, reading a
/// lane register) and those CUB writes (PtxStatements.cpp) are translated;
/// anything else is an error that says what the statement is for when that is
/// recognisable.
void DeviceCallLowering::lowerInlineAsm(CallBase &Call, const InlineAsm &Asm) {
  StringRef Text = StringRef(Asm.getAsmString()).trim();
  auto *Inst = dyn_cast<CallInst>(&Call);
  if (Inst && (Text == "trap;" || Text == "trap")) {
    IRBuilder<> B(Inst);
    B.CreateCall(runtime("__cudaemu_trap", Void, {}), {});
    replace(*Inst, Call.getType()->isVoidTy()
                       ? nullptr
                       : PoisonValue::get(Call.getType()));
    return;
  }
  // What CUB writes as PTX (PtxStatements.cpp).
  if (Inst && lowerKnownPtx(*Inst, Text))
    return;
  StringRef Register = Text;
  if (Inst && Call.getType()->isIntegerTy() &&
      (Register.consume_front("mov.u32 $0, %") ||
       Register.consume_front("mov.b32 $0, %")) &&
      Register.consume_back(";"))
    if (std::optional<EnzymeCudaEmuRegister> R = asmRegister(Register)) {
      IRBuilder<> B(Inst);
      replace(*Inst, B.CreateZExtOrTrunc(readRegister(B, *R), Call.getType()));
      return;
    }

  std::string Purpose;
  if (Text.starts_with("tex.") || Text.starts_with("tld4.") ||
      Text.starts_with("txq."))
    Purpose = "texture fetches";
  else if (Text.starts_with("suld.") || Text.starts_with("sust.") ||
           Text.starts_with("suq."))
    Purpose = "surface accesses";
  else if (Text.contains("%envreg"))
    Purpose = "grid-wide cooperative-groups synchronisation "
              "(this_grid().sync())";
  // One line, short enough to read in an error.
  std::string Statement;
  for (char C : Text) {
    bool Space = C == '\n' || C == '\t' || C == ' ';
    if (!Space || (!Statement.empty() && Statement.back() != ' '))
      Statement += Space ? ' ' : C;
  }
  if (Statement.size() > 100)
    Statement = Statement.substr(0, 97) + "...";
  Statement = "'" + Statement + "'";
  Diags.error(Call, Purpose.empty()
                        ? "CUDA emulation cannot run inline PTX assembly (" +
                              Statement + ")"
                        : "CUDA emulation does not support " + Purpose +
                              " (inline PTX assembly " + Statement + ")");
}

void DeviceCallLowering::lowerCall(CallBase &Call) {
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand())) {
    lowerInlineAsm(Call, *Asm);
    return;
  }
  Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return;
  if (!Callee->isIntrinsic()) {
    lowerDeclarationCall(Call, *Callee);
    return;
  }
  if (!Callee->getName().starts_with("llvm.nvvm."))
    return;
  auto *Inst = dyn_cast<CallInst>(&Call);
  if (!Inst || !lowerNvvmIntrinsic(*Inst, Callee->getIntrinsicID()))
    Diags.error(Call, "CUDA emulation does not support " +
                          describeIntrinsic(Callee->getName()));
}

/// Straight-line PTX of moves, warp shuffles and arithmetic (CUB's steps of
/// warp reductions and scans) as the NVVM IR it computes, which the calls'
/// lowering then reads like any other.
static void translatePtxBlocks(Module &M) {
  SmallVector<CallInst *, 16> Statements;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isInlineAsm())
        Statements.push_back(Call);
  for (CallInst *Call : Statements)
    if (std::optional<AsmOperands> Ops = readAsmOperands(*Call))
      if (Value *Result = translatePtxStatements(*Call, *Ops)) {
        Call->replaceAllUsesWith(Result);
        Call->eraseFromParent();
      }
}

void DeviceCallLowering::run() {
  translatePtxBlocks(M);
  SmallVector<CallBase *, 64> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        Calls.push_back(Call);
  for (CallBase *Call : Calls)
    lowerCall(*Call);
  // Declarations the rewrites left without users would otherwise reach the
  // host object as undefined references to device-only symbols.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        (F.getName().starts_with("llvm.nvvm.") || F.getName() == "vprintf" ||
         F.getName() == "__assertfail"))
      F.eraseFromParent();
}

void lowerDeviceCalls(Module &M, DiagnosticList &Diags,
                      SmallSetVector<GlobalValue *, 4> *OtherFiles) {
  DeviceCallLowering(M, Diags, OtherFiles).run();
}

} // namespace enzyme::cuda_emulation
