//===- PtxStatements.cpp - Inline PTX that CUB writes, as host IR ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUB (and so Thrust) writes parts of its kernels as inline PTX: cache
/// hints, loads and stores with a memory order at GPU scope, bit operations
/// PTX clamps, a ballot match and `exit`. The statements are recognised by
/// their exact text, as CUB's headers write them, and replaced by what they
/// compute; anything else stays an error (DeviceCalls.cpp). Straight-line
/// moves, warp shuffles, arithmetic and loads with a cache operator (the
/// steps of CUB's warp reductions and scans, its loads of tiles) were
/// translated to NVVM IR before (Core/PtxStatements.h, shared with the
/// engine).
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "../EmulationAbi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace enzyme::cuda_emulation {

namespace {

/// A load or store of one to four elements, as a whole, ordered at GPU
/// scope.
struct MemoryStatement {
  bool Store;
  unsigned Count, Bits;
  AtomicOrdering Order;
};

class PtxLowering {
public:
  PtxLowering(CallInst &Call)
      : Call(Call), M(*Call.getModule()), B(&Call), I32(B.getInt32Ty()),
        I64(B.getInt64Ty()) {}

  bool lower(StringRef Text);

private:
  FunctionCallee runtime(StringRef Name, Type *Result,
                         ArrayRef<Type *> Params) {
    return runtimeFunction(M, Name, Result, Params);
  }
  bool lowerBitOperation(StringRef Text);
  bool lowerBallotMatch(StringRef Compact);
  bool lowerMemory(StringRef Text);
  void finish(Value *Result);

  CallInst &Call;
  Module &M;
  IRBuilder<> B;
  Type *I32, *I64;
};

} // namespace

/// \p Text without white space, which is how templates are compared.
static std::string compact(StringRef Text) {
  std::string Result;
  for (char C : Text)
    if (!isSpace(static_cast<unsigned char>(C)))
      Result += C;
  return Result;
}

void PtxLowering::finish(Value *Result) {
  if (Result && !Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// `ld.MOD[.v2|.v4].T DEST, [$N];` and `st.MOD[.v2|.v4].T [$0], SRC;` with
/// T one of u16, u32, u64 and a memory order at GPU scope (MOD:
/// ld.relaxed/acquire.gpu, st.relaxed/release.gpu), the elements accessed
/// as one. (Loads with a cache operator are plain loads, translated with
/// the straight-line PTX: Core/PtxStatements.h.)
static std::optional<MemoryStatement> memoryStatement(StringRef Text) {
  MemoryStatement S{false, 1, 0, AtomicOrdering::NotAtomic};
  if (Text.consume_front("st."))
    S.Store = true;
  else if (!Text.consume_front("ld."))
    return std::nullopt;
  if (Text.consume_front("relaxed.gpu."))
    S.Order = AtomicOrdering::Monotonic;
  else if (!S.Store && Text.consume_front("acquire.gpu."))
    S.Order = AtomicOrdering::Acquire;
  else if (S.Store && Text.consume_front("release.gpu."))
    S.Order = AtomicOrdering::Release;
  else
    return std::nullopt;
  S.Count = Text.consume_front("v2.") ? 2 : Text.consume_front("v4.") ? 4 : 1;
  S.Bits = Text.consume_front("u16 ")   ? 16
           : Text.consume_front("u32 ") ? 32
           : Text.consume_front("u64 ") ? 64
                                        : 0;
  // One statement with one address operand.
  if (!S.Bits || !Text.consume_back(";") || Text.count(';') ||
      Text.count('[') != 1 || Text.count(']') != 1)
    return std::nullopt;
  if (S.Store ? !Text.starts_with("[$0], ") : !Text.ends_with("]"))
    return std::nullopt;
  return S;
}

bool PtxLowering::lowerMemory(StringRef Text) {
  std::optional<MemoryStatement> S = memoryStatement(Text);
  if (!S)
    return false;
  Type *Element = B.getIntNTy(S->Bits);
  unsigned TotalBits = S->Count * S->Bits;
  Align Alignment(TotalBits / 8);
  // The operands: an address, and for a store the elements; for a load, the
  // result is one element or a struct of them.
  unsigned Values = S->Store ? S->Count : 0;
  if (Call.arg_size() != 1 + Values ||
      !Call.getArgOperand(0)->getType()->isPointerTy())
    return false;
  for (unsigned K = 0; K < Values; ++K)
    if (Call.getArgOperand(1 + K)->getType() != Element)
      return false;
  auto *Result = dyn_cast<StructType>(Call.getType());
  if (!S->Store &&
      !(S->Count == 1 ? Call.getType() == Element
                      : Result && Result->getNumElements() == S->Count &&
                            all_of(Result->elements(),
                                   [&](Type *T) { return T == Element; })))
    return false;
  Value *Address = Call.getArgOperand(0);

  // An ordered access: all elements at once, little-endian in one integer,
  // or in two 64-bit halves under the runtime's lock for 16 bytes.
  if (TotalBits > 128)
    return false;
  if (S->Store) {
    Value *Whole[2] = {B.getInt64(0), B.getInt64(0)};
    Type *Half = TotalBits > 64 ? I64 : B.getIntNTy(TotalBits);
    Whole[0] = ConstantInt::get(Half, 0);
    for (unsigned K = 0; K < S->Count; ++K) {
      unsigned Bit = K * S->Bits, Slot = Bit / 64;
      Value *Part = B.CreateZExt(Call.getArgOperand(1 + K), Half);
      if (Bit % 64)
        Part = B.CreateShl(Part, Bit % 64);
      Whole[Slot] = B.CreateOr(Whole[Slot], Part);
    }
    if (TotalBits > 64) {
      B.CreateCall(runtime("__cudaemu_store128", B.getVoidTy(),
                           {B.getPtrTy(), I64, I64}),
                   {Address, Whole[0], Whole[1]});
    } else {
      StoreInst *Store = B.CreateAlignedStore(Whole[0], Address, Alignment);
      Store->setAtomic(S->Order);
    }
    finish(nullptr);
    return true;
  }
  Value *Halves[2];
  if (TotalBits > 64) {
    AllocaInst *Out = B.CreateAlloca(ArrayType::get(I64, 2));
    B.CreateCall(runtime("__cudaemu_load128", B.getVoidTy(),
                         {B.getPtrTy(), B.getPtrTy()}),
                 {Address, Out});
    Halves[0] = B.CreateLoad(I64, Out);
    Halves[1] = B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, Out, 1));
  } else {
    LoadInst *Load =
        B.CreateAlignedLoad(B.getIntNTy(TotalBits), Address, Alignment);
    Load->setAtomic(S->Order);
    Halves[0] = Load;
  }
  Value *Loaded = PoisonValue::get(Call.getType());
  for (unsigned K = 0; K < S->Count; ++K) {
    unsigned Bit = K * S->Bits;
    Value *Half = Halves[Bit / 64];
    Value *Part =
        B.CreateTrunc(Bit % 64 ? B.CreateLShr(Half, Bit % 64) : Half, Element);
    Loaded = S->Count == 1 ? Part : B.CreateInsertValue(Loaded, Part, K);
  }
  finish(Loaded);
  return true;
}

/// `shl.bN`, `shr.bN`/`shr.uN` (logical), `shr.sN` (arithmetic) for N 32
/// or 64, and `bmsk.clamp.b32` (a mask of $2 bits from bit $1), written
/// `OP $0, $1, $2;`: PTX clamps shift amounts and mask bounds to the width,
/// where LLVM's shifts would be poison.
bool PtxLowering::lowerBitOperation(StringRef Text) {
  StringRef Op = Text.take_until([](char C) { return C == ' '; });
  if (Text.drop_front(Op.size()) != " $0, $1, $2;" || Call.arg_size() != 2)
    return false;
  Value *A = Call.getArgOperand(0), *N = Call.getArgOperand(1);
  if (Op == "bmsk.clamp.b32") {
    if (Call.getType() != I32 || A->getType() != I32 || N->getType() != I32)
      return false;
    auto Clamp = [&](Value *V) {
      return B.CreateZExt(
          B.CreateSelect(B.CreateICmpUGT(V, B.getInt32(32)), B.getInt32(32), V),
          I64);
    };
    Value *Start = Clamp(A), *Width = Clamp(N);
    Value *Ones = B.CreateSub(B.CreateShl(B.getInt64(1), Width), B.getInt64(1));
    finish(B.CreateTrunc(B.CreateShl(Ones, Start), I32));
    return true;
  }
  auto [Name, Type] = Op.split('.');
  unsigned Width = Type.drop_front() == "32"   ? 32
                   : Type.drop_front() == "64" ? 64
                                               : 0;
  bool Arithmetic = Type.front() == 's';
  if (!Width || (Name != "shl" && Name != "shr") ||
      (Name == "shl" && Type.front() != 'b') ||
      (Type.front() != 'b' && Type.front() != 'u' && !Arithmetic) ||
      Call.getType() != B.getIntNTy(Width) || A->getType() != Call.getType() ||
      N->getType() != I32)
    return false;
  Value *Amount = B.CreateZExt(N, Call.getType());
  Value *Big = B.CreateICmpUGE(Amount, ConstantInt::get(Call.getType(), Width));
  Value *Result;
  if (Arithmetic)
    Result = B.CreateAShr(
        A, B.CreateSelect(Big, ConstantInt::get(Call.getType(), Width - 1),
                          Amount));
  else
    Result = B.CreateSelect(Big, ConstantInt::get(Call.getType(), 0),
                            Name == "shl" ? B.CreateShl(A, Amount)
                                          : B.CreateLShr(A, Amount));
  finish(Result);
  return true;
}

/// CUB's match of a label bit across the warp (util_ptx.cuh): the lanes
/// whose label has the bit where this lane's has it, and the others where
/// it has not.
bool PtxLowering::lowerBallotMatch(StringRef Compact) {
  if (Compact != "{.reg.predp;and.b32$0,$1,$2;setp.ne.u32p,$0,0;vote.ballot."
                 "sync.b32$0,p,0xffffffff;@!pnot.b32$0,$0;}" ||
      Call.arg_size() != 2 || Call.getType() != I32)
    return false;
  Value *Set = B.CreateICmpNE(
      B.CreateAnd(Call.getArgOperand(0), Call.getArgOperand(1)), B.getInt32(0));
  Value *Ballot =
      B.CreateCall(runtime("__cudaemu_vote", I32, {I32, I32, I32}),
                   {B.getInt32(EnzymeCudaEmuVoteBallot), B.getInt32(0xffffffff),
                    B.CreateZExt(Set, I32)});
  finish(B.CreateSelect(Set, Ballot, B.CreateNot(Ballot)));
  return true;
}

bool PtxLowering::lower(StringRef Text) {
  // A prefetch into a cache (CUB's transform kernels issue them) is a hint
  // without effect on values.
  if (Call.getType()->isVoidTy() &&
      (Text.starts_with("prefetch.") || Text.starts_with("prefetchu.")) &&
      !Text.drop_back(Text.ends_with(";")).contains(';')) {
    finish(nullptr);
    return true;
  }
  // `nanosleep.u32 $0;`, as the runtime header writes __nanosleep.
  if (Text == "nanosleep.u32 $0;" && Call.arg_size() == 1 &&
      Call.getArgOperand(0)->getType() == I32) {
    B.CreateCall(runtime("__cudaemu_nanosleep", B.getVoidTy(), {I32}),
                 {Call.getArgOperand(0)});
    finish(nullptr);
    return true;
  }
  // `exit;` ends the thread, as returning from the kernel does.
  if (Text == "exit;" && Call.getType()->isVoidTy() && !Call.arg_size()) {
    B.CreateCall(runtime("__cudaemu_exit", B.getVoidTy(), {}));
    finish(nullptr);
    return true;
  }
  std::string Compact = compact(Text);
  return lowerMemory(Text) || lowerBitOperation(Text) ||
         lowerBallotMatch(Compact);
}

bool lowerKnownPtx(CallInst &Call, StringRef Text) {
  return PtxLowering(Call).lower(Text.trim());
}

} // namespace enzyme::cuda_emulation
