//===- InlineAsmLowering.cpp - Assembly the engine can read --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/InlineAsmLowering.h"

#include "Core/GpuTarget.h"
#include "Core/InlineAsmOperands.h"
#include "Core/PtxStatements.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <optional>

using namespace llvm;

namespace enzyme {

namespace {
/// An x86 instruction written as assembly, and its operands ($N, AT&T
/// order: sources first, destination last).
struct AsmInstruction {
  StringRef Mnemonic;
  SmallVector<unsigned, 3> Operands;
};
} // namespace

static std::optional<AsmInstruction> parseInstruction(StringRef Text) {
  // A statement may end with a semicolon.
  Text = Text.trim();
  Text.consume_back(";");
  AsmInstruction I;
  auto [Mnemonic, Rest] = Text.split(' ');
  I.Mnemonic = Mnemonic.trim();
  SmallVector<StringRef, 3> Parts;
  Rest.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim();
    unsigned N;
    if (!P.consume_front("$") || P.getAsInteger(10, N))
      return std::nullopt;
    I.Operands.push_back(N);
  }
  return I;
}

/// Builds what the known instruction \p I computes into its single output
/// (operand $0, of type \p RetTy), or returns nullptr (building nothing)
/// when it is not one.
static Value *buildInstruction(IRBuilder<> &B, const AsmInstruction &I,
                               const AsmOperands &Ops, Type *RetTy) {
  StringRef M = I.Mnemonic;
  bool Packed = M.consume_back("ps") || M.consume_back("pd");
  if (Ops.Outputs.size() != 1 || Ops.Outputs[0].Indirect || !Packed ||
      I.Operands.size() < 2 || I.Operands.back() != 0 ||
      !RetTy->isFPOrFPVectorTy())
    return nullptr;
  SmallVector<Value *, 2> Sources;
  for (unsigned N : ArrayRef<unsigned>(I.Operands).drop_back())
    Sources.push_back(Ops.valueOf(N));
  Value *DstIn = Ops.Outputs[0].Tied;
  auto Fits = [&](ArrayRef<Value *> Vals) {
    return all_of(Vals, [&](Value *V) { return V && V->getType() == RetTy; });
  };
  // vfmadd231 x, y, d: d = y * x + d.
  if (M == "vfmadd231") {
    if (Sources.size() != 2 || !Fits({Sources[0], Sources[1], DstIn}))
      return nullptr;
    return B.CreateIntrinsic(Intrinsic::fma, {RetTy},
                             {Sources[1], Sources[0], DstIn});
  }
  // Three-operand AVX min/max x, y, d: d = y < x ? y : x (x when
  // unordered); two-operand SSE min/max x, d: d = d < x ? d : x.
  Value *First, *Second;
  if (M.consume_front("v")) {
    if (Sources.size() != 2)
      return nullptr;
    First = Sources[1];
    Second = Sources[0];
  } else {
    if (Sources.size() != 1)
      return nullptr;
    First = DstIn;
    Second = Sources[0];
  }
  if ((M != "min" && M != "max") || !Fits({First, Second}))
    return nullptr;
  Value *Pick = M == "min" ? B.CreateFCmpOLT(First, Second)
                           : B.CreateFCmpOGT(First, Second);
  return B.CreateSelect(Pick, First, Second);
}

/// The result types fit \p Direct: one value, or a struct of them.
static bool resultFits(const CallBase &Call, ArrayRef<Type *> Direct) {
  Type *RetTy = Call.getType();
  if (Direct.empty())
    return RetTy->isVoidTy();
  if (Direct.size() == 1 && RetTy == Direct[0])
    return true;
  auto *ST = dyn_cast<StructType>(RetTy);
  return ST && ST->elements() == Direct;
}

/// An empty statement whose outputs all take their tied inputs: stores for
/// outputs in memory and the values of the others; false when it is not.
static bool lowerBarrier(CallInst &Call, const AsmOperands &Ops) {
  SmallVector<Type *, 2> DirectTypes;
  for (const AsmOperands::Output &O : Ops.Outputs) {
    if (!O.Tied)
      return false;
    if (!O.Indirect)
      DirectTypes.push_back(O.Tied->getType());
    else if (Call.getParamElementType(O.Arg) != O.Tied->getType())
      return false;
  }
  if (Ops.Outputs.empty() || !resultFits(Call, DirectTypes))
    return false;
  IRBuilder<> B(&Call);
  SmallVector<Value *, 2> Direct;
  for (const AsmOperands::Output &O : Ops.Outputs) {
    if (O.Indirect)
      B.CreateStore(O.Tied, Call.getArgOperand(O.Arg));
    else
      Direct.push_back(O.Tied);
  }
  if (Direct.size() == 1 && !Call.getType()->isStructTy()) {
    Call.replaceAllUsesWith(Direct[0]);
  } else if (!Direct.empty()) {
    Value *Agg = PoisonValue::get(Call.getType());
    for (auto [I, V] : enumerate(Direct))
      Agg = B.CreateInsertValue(Agg, V, I);
    Call.replaceAllUsesWith(Agg);
  }
  return true;
}

bool lowerKnownInlineAsm(Function &F) {
  SmallVector<CallInst *, 4> Statements;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isInlineAsm())
      Statements.push_back(Call);
  bool Changed = false;
  for (CallInst *Call : Statements) {
    std::optional<AsmOperands> Ops = readAsmOperands(*Call);
    if (!Ops)
      continue;
    StringRef Text = cast<InlineAsm>(Call->getCalledOperand())->getAsmString();
    if (Text.trim().empty()) {
      if (!lowerBarrier(*Call, *Ops))
        continue;
    } else {
      IRBuilder<> B(Call);
      std::optional<AsmInstruction> I = parseInstruction(Text);
      Value *Result = nullptr;
      if (!isCudaModule(*F.getParent()))
        Result = I ? buildInstruction(B, *I, *Ops, Call->getType()) : nullptr;
      else
        Result = translatePtxStatements(*Call, *Ops);
      if (!Result)
        continue;
      Call->replaceAllUsesWith(Result);
    }
    Call->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

bool writesMemoryOperand(const CallBase &Call,
                         function_ref<bool(const Value *)> Want) {
  std::optional<AsmOperands> Ops = readAsmOperands(Call);
  if (!Ops) // Unreadable constraints: any pointer argument may be written.
    return any_of(Call.args(), [&](const Use &U) {
      return U->getType()->isPointerTy() && Want(U.get());
    });
  return any_of(Ops->Outputs, [&](const AsmOperands::Output &O) {
    return O.Indirect && Want(Call.getArgOperand(O.Arg));
  });
}

} // namespace enzyme
