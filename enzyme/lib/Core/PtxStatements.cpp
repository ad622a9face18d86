//===- PtxStatements.cpp - Straight-line inline PTX as NVVM IR ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/PtxStatements.h"

#include "Core/InlineAsmOperands.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <optional>

using namespace llvm;

namespace enzyme {

namespace {

/// An opcode, `add.rn.f64`: its name, its modifiers and the type it acts on
/// (its last suffix).
struct Opcode {
  StringRef Name;
  SmallVector<StringRef, 2> Modifiers;
  StringRef TypeName;
  Type *Ty = nullptr;
};

class PtxTranslator {
public:
  PtxTranslator(CallInst &Call, const AsmOperands &Ops)
      : Call(Call), Ops(Ops), B(&Call) {}

  Value *run(StringRef Text);

private:
  bool statement(StringRef Text);
  bool declare(StringRef Text);
  void closeScope();
  bool move(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool movePair(ArrayRef<StringRef> Operands);
  bool shuffle(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool cachedLoad(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool convert(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool compare(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool approximate(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool bitwise(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool atomic(const Opcode &Op, ArrayRef<StringRef> Operands);
  bool fence(StringRef Text);
  bool arithmetic(const Opcode &Op, ArrayRef<StringRef> Operands);
  Value *result();

  Type *typeNamed(StringRef Name);
  Value *read(StringRef Operand, Type *Ty);
  Value *immediate(StringRef Text, Type *Ty);
  bool write(StringRef Dest, Value *V);
  Value *coerce(Value *V, Type *Ty);

  CallInst &Call;
  const AsmOperands &Ops;
  IRBuilder<> B;
  StringMap<Type *> Declared;
  /// The values written so far, of registers and of outputs ("$N").
  StringMap<Value *> Written;
  /// The statement's guard (`@p`, `@!p`, already negated), or nullptr.
  Value *Guard = nullptr;
  /// The last fence built, which stands for a statement without outputs.
  Instruction *Barrier = nullptr;
  /// For each open block (`{ ... }`), the registers it declared and what
  /// their names meant outside it.
  struct Shadowed {
    std::string Name;
    Type *OuterTy;
    Value *OuterValue;
  };
  SmallVector<SmallVector<Shadowed, 4>, 4> Scopes;
};

} // namespace

/// \p Text split at the commas outside braces; false when the braces do not
/// balance.
static bool splitOperands(StringRef Text, SmallVectorImpl<StringRef> &Parts) {
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '{') {
      ++Depth;
    } else if (Text[I] == '}') {
      if (Depth-- == 0)
        return false;
    } else if (Text[I] == ',' && Depth == 0) {
      Parts.push_back(Text.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Parts.push_back(Text.drop_front(Start).trim());
  return Depth == 0 && none_of(Parts, [](StringRef P) { return P.empty(); });
}

/// The two names of a `{a, b}` operand, or nullopt for other operands.
static std::optional<std::pair<StringRef, StringRef>>
halvesOperand(StringRef Operand) {
  if (!Operand.consume_front("{") || !Operand.consume_back("}"))
    return std::nullopt;
  auto [A, Rest] = Operand.split(',');
  if (Rest.contains(',') || A.trim().empty() || Rest.trim().empty())
    return std::nullopt;
  return std::make_pair(A.trim(), Rest.trim());
}

/// `$N`'s number, or nullopt for other operands.
static std::optional<unsigned> operandNumber(StringRef Operand) {
  unsigned N;
  if (!Operand.consume_front("$") || Operand.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

Type *PtxTranslator::typeNamed(StringRef Name) {
  if (Name == "pred")
    return B.getInt1Ty();
  if (Name == "f32")
    return B.getFloatTy();
  if (Name == "f64")
    return B.getDoubleTy();
  // Half precision, and its pairs in a 32-bit register (`__half2`).
  if (Name == "f16")
    return B.getHalfTy();
  if (Name == "bf16")
    return B.getBFloatTy();
  if (Name == "f16x2")
    return FixedVectorType::get(B.getHalfTy(), 2);
  if (Name == "bf16x2")
    return FixedVectorType::get(B.getBFloatTy(), 2);
  unsigned Bits;
  if (Name.size() > 1 && StringRef("bsu").contains(Name[0]) &&
      !Name.drop_front().getAsInteger(10, Bits) &&
      (Bits == 16 || Bits == 32 || Bits == 64))
    return B.getIntNTy(Bits);
  return nullptr;
}

/// \p V as \p Ty: the same bits reinterpreted (PTX's registers are untyped
/// bits of a width), or nullptr when the widths differ.
Value *PtxTranslator::coerce(Value *V, Type *Ty) {
  Type *From = V->getType();
  if (From == Ty)
    return V;
  auto IsBits = [](Type *T) {
    return (T->isIntOrIntVectorTy() && !T->isIntOrIntVectorTy(1)) ||
           T->isFPOrFPVectorTy();
  };
  if (From->isIntegerTy(1) || Ty->isIntegerTy(1) || !IsBits(From) ||
      !IsBits(Ty) ||
      From->getPrimitiveSizeInBits() != Ty->getPrimitiveSizeInBits())
    return nullptr;
  return B.CreateBitCast(V, Ty);
}

Value *PtxTranslator::immediate(StringRef Text, Type *Ty) {
  if (!Ty)
    return nullptr;
  // Floats as PTX writes their bits: 0d and 16 hex digits, 0f and 8.
  uint64_t Bits;
  if ((Text.starts_with("0d") || Text.starts_with("0D")) && Text.size() == 18 &&
      !Text.drop_front(2).getAsInteger(16, Bits))
    return coerce(ConstantFP::get(B.getContext(), APFloat(APFloat::IEEEdouble(),
                                                          APInt(64, Bits))),
                  Ty);
  if ((Text.starts_with("0f") || Text.starts_with("0F")) && Text.size() == 10 &&
      !Text.drop_front(2).getAsInteger(16, Bits))
    return coerce(ConstantFP::get(B.getContext(), APFloat(APFloat::IEEEsingle(),
                                                          APInt(32, Bits))),
                  Ty);
  // Integers, with PTX's `U` suffix of unsigned ones. CUDA's headers write
  // the warp's size as the name PTX gives it.
  if (Text == "WARP_SZ")
    Text = "32";
  if (Text.ends_with("U") || Text.ends_with("u"))
    Text = Text.drop_back();
  int64_t Value;
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64 ||
      Text.getAsInteger(0, Value))
    return nullptr;
  APInt Int(64, Value, /*isSigned=*/true);
  unsigned Width = Ty->getIntegerBitWidth();
  if (Width < 64 && !Int.isSignedIntN(Width) && !Int.isIntN(Width))
    return nullptr;
  return ConstantInt::get(B.getContext(), Int.trunc(Width));
}

/// The value of \p Operand (an operand, a register or an immediate), as
/// \p Ty where that is given; nullptr when it has none yet.
Value *PtxTranslator::read(StringRef Operand, Type *Ty) {
  Value *V = nullptr;
  if (std::optional<unsigned> N = operandNumber(Operand)) {
    V = *N < Ops.Outputs.size() ? Written.lookup(Operand) : nullptr;
    if (!V)
      V = Ops.valueOf(*N);
  } else if (Declared.count(Operand)) {
    V = Written.lookup(Operand);
  } else {
    return immediate(Operand, Ty);
  }
  return V && Ty ? coerce(V, Ty) : V;
}

/// Writes \p V to \p Dest (an output or a declared register) where the
/// statement's guard holds.
bool PtxTranslator::write(StringRef Dest, Value *V) {
  if (std::optional<unsigned> N = operandNumber(Dest)) {
    if (*N >= Ops.Outputs.size())
      return false;
  } else if (Type *Ty = Declared.lookup(Dest)) {
    if (!(V = coerce(V, Ty)))
      return false;
  } else {
    return false;
  }
  if (Guard) {
    // Where the guard fails the destination keeps its value.
    Value *Old = read(Dest, nullptr);
    if (!Old || !(V = coerce(V, Old->getType())))
      return false;
    V = B.CreateSelect(Guard, V, Old);
  }
  Written[Dest] = V;
  return true;
}

bool PtxTranslator::declare(StringRef Text) {
  // .reg .T a, b;
  Text = Text.drop_front(strlen(".reg")).ltrim();
  auto [TypeName, Names] = Text.split(' ');
  Type *Ty = TypeName.consume_front(".") ? typeNamed(TypeName) : nullptr;
  SmallVector<StringRef, 2> Parts;
  if (!Ty || !splitOperands(Names, Parts))
    return false;
  for (StringRef Name : Parts) {
    // A block may declare a name an enclosing one has (cuda_fp16.h's
    // fix-ups of special values, one block each), not twice.
    if (operandNumber(Name) || Name.contains('<') || Scopes.empty() ||
        any_of(Scopes.back(),
               [&](const Shadowed &S) { return S.Name == Name; }))
      return false;
    Scopes.back().push_back(
        {Name.str(), Declared.lookup(Name), Written.lookup(Name)});
    Declared[Name] = Ty;
    Written.erase(Name);
  }
  return true;
}

void PtxTranslator::closeScope() {
  for (const Shadowed &S : reverse(Scopes.back())) {
    if (S.OuterTy)
      Declared[S.Name] = S.OuterTy;
    else
      Declared.erase(S.Name);
    if (S.OuterValue)
      Written[S.Name] = S.OuterValue;
    else
      Written.erase(S.Name);
  }
  Scopes.pop_back();
}

/// `mov.T d, s;`, `mov.T {a, b}, s;` (the halves of s, low first) and
/// `mov.T d, {a, b};` (d joined from its halves).
bool PtxTranslator::move(const Opcode &Op, ArrayRef<StringRef> Operands) {
  if (Operands.size() != 2 || !Op.Modifiers.empty())
    return false;
  unsigned Bits = Op.Ty->getPrimitiveSizeInBits();
  Type *Whole = B.getIntNTy(Bits), *Half = B.getIntNTy(Bits / 2);
  // A pair of 16-bit halves (`__half2`) is a vector of two: its halves move
  // as lanes, which the engine reads as floats where they are floats.
  if (Bits == 32 && (halvesOperand(Operands[0]) || halvesOperand(Operands[1])))
    return movePair(Operands);
  if (auto Halves = halvesOperand(Operands[0])) {
    Value *S = Op.Ty->isIntegerTy(1) ? nullptr : read(Operands[1], Whole);
    return S && write(Halves->first, B.CreateTrunc(S, Half)) &&
           write(Halves->second,
                 B.CreateTrunc(B.CreateLShr(S, Bits / 2), Half));
  }
  if (auto Halves = halvesOperand(Operands[1])) {
    Value *Lo = Op.Ty->isIntegerTy(1) ? nullptr : read(Halves->first, Half);
    Value *Hi = Lo ? read(Halves->second, Half) : nullptr;
    return Hi &&
           write(Operands[0],
                 B.CreateOr(B.CreateShl(B.CreateZExt(Hi, Whole), Bits / 2),
                            B.CreateZExt(Lo, Whole)));
  }
  // A move keeps the bits, and their type, whatever it names.
  Value *S = read(Operands[1], nullptr);
  if (!S)
    S = immediate(Operands[1], Op.Ty);
  return S && S->getType()->getPrimitiveSizeInBits() == Bits &&
         write(Operands[0], S);
}

/// `mov.b32 {a, b}, s;` and `mov.b32 d, {a, b};` as lanes of a vector of
/// two 16-bit values: halves where a named register or value is one, else
/// integers.
bool PtxTranslator::movePair(ArrayRef<StringRef> Operands) {
  auto LaneType = [&](Type *Ty) {
    return Ty && Ty->isFloatingPointTy() && Ty->getPrimitiveSizeInBits() == 16
               ? Ty
               : B.getInt16Ty();
  };
  if (auto Halves = halvesOperand(Operands[0])) {
    Type *Lane = LaneType(Declared.lookup(Halves->first));
    Value *S = read(Operands[1], FixedVectorType::get(Lane, 2));
    return S && write(Halves->first, B.CreateExtractElement(S, uint64_t(0))) &&
           write(Halves->second, B.CreateExtractElement(S, uint64_t(1)));
  }
  if (auto Halves = halvesOperand(Operands[1])) {
    // A half that came in as its bits (`__halves2half2` of a conversion's
    // result) joins as the half.
    auto Lane16 = [&](StringRef Operand) -> Value * {
      Value *V = read(Operand, nullptr);
      if (auto *Cast = dyn_cast_or_null<BitCastInst>(V);
          Cast && LaneType(Cast->getSrcTy()) == Cast->getSrcTy())
        return Cast->getOperand(0);
      return V ? V : immediate(Operand, B.getInt16Ty());
    };
    Value *Lo = Lane16(Halves->first), *Hi = Lane16(Halves->second);
    if (!Lo || !Hi)
      return false;
    Type *Lane = LaneType(Lo->getType());
    if (Lane->isIntegerTy())
      Lane = LaneType(Hi->getType());
    Lo = coerce(Lo, Lane);
    Hi = Lo ? coerce(Hi, Lane) : nullptr;
    if (!Hi)
      return false;
    Value *V = PoisonValue::get(FixedVectorType::get(Lane, 2));
    V = B.CreateInsertElement(V, Lo, uint64_t(0));
    return write(Operands[0], B.CreateInsertElement(V, Hi, uint64_t(1)));
  }
  return false;
}

/// `shfl.sync.MODE.b32 d[|p], a, b, c, m;`: NVVM's shuffle, the `.i32p` one
/// for the predicate that says whether the source lane was in range.
bool PtxTranslator::shuffle(const Opcode &Op, ArrayRef<StringRef> Operands) {
  if (Guard || Op.Modifiers.size() != 2 || Op.Modifiers[0] != "sync" ||
      Op.TypeName != "b32" || Operands.size() != 5)
    return false;
  bool Predicated = Operands[0].contains('|');
  auto Modes =
      StringSwitch<std::pair<Intrinsic::ID, Intrinsic::ID>>(Op.Modifiers[1])
          .Case("up", {Intrinsic::nvvm_shfl_sync_up_i32,
                       Intrinsic::nvvm_shfl_sync_up_i32p})
          .Case("down", {Intrinsic::nvvm_shfl_sync_down_i32,
                         Intrinsic::nvvm_shfl_sync_down_i32p})
          .Case("bfly", {Intrinsic::nvvm_shfl_sync_bfly_i32,
                         Intrinsic::nvvm_shfl_sync_bfly_i32p})
          .Case("idx", {Intrinsic::nvvm_shfl_sync_idx_i32,
                        Intrinsic::nvvm_shfl_sync_idx_i32p})
          .Default({Intrinsic::not_intrinsic, Intrinsic::not_intrinsic});
  if (Modes.first == Intrinsic::not_intrinsic)
    return false;
  // d, a, b, c, membermask; the intrinsics take the mask first.
  SmallVector<Value *, 4> Args;
  for (unsigned N : {4u, 1u, 2u, 3u}) {
    Value *V = read(Operands[N], B.getInt32Ty());
    if (!V)
      return false;
    Args.push_back(V);
  }
  auto [Dest, Predicate] = Operands[0].split('|');
  if (!Predicated)
    return write(Dest, B.CreateIntrinsic(Modes.first, {}, Args));
  Value *Pair = B.CreateIntrinsic(Modes.second, {}, Args);
  return write(Dest.trim(), B.CreateExtractValue(Pair, 0)) &&
         write(Predicate.trim(), B.CreateExtractValue(Pair, 1));
}

/// `ld.CACHE[.v2|.v4].T DEST, [ADDRESS];` with a cache operator (CACHE:
/// global.nc, ca, cg, cs, or cv, which is volatile) and T one of u16, u32,
/// u64 (CUB's loads of tiles, which read doubles as integers): plain loads,
/// element by element, the first with the whole access's alignment.
bool PtxTranslator::cachedLoad(const Opcode &Op, ArrayRef<StringRef> Operands) {
  ArrayRef<StringRef> Mods = Op.Modifiers;
  unsigned Count = 1;
  if (!Mods.empty() && (Mods.back() == "v2" || Mods.back() == "v4")) {
    Count = Mods.back() == "v2" ? 2 : 4;
    Mods = Mods.drop_back();
  }
  bool Volatile = Mods == ArrayRef<StringRef>{"cv"};
  bool Cached = Volatile || Mods == ArrayRef<StringRef>{"global", "nc"} ||
                Mods == ArrayRef<StringRef>{"ca"} ||
                Mods == ArrayRef<StringRef>{"cg"} ||
                Mods == ArrayRef<StringRef>{"cs"};
  StringRef Address = Operands.size() == 2 ? Operands[1] : "";
  SmallVector<StringRef, 4> Dests;
  if (!Guard && Cached && Op.TypeName.starts_with("u") &&
      Address.consume_front("[") && Address.consume_back("]")) {
    StringRef Dest = Operands[0];
    if (Count == 1)
      Dests.push_back(Dest);
    else if (!Dest.consume_front("{") || !Dest.consume_back("}") ||
             !splitOperands(Dest, Dests))
      return false;
  }
  Value *Ptr = Dests.size() == Count ? read(Address.trim(), nullptr) : nullptr;
  if (!Ptr || !Ptr->getType()->isPointerTy())
    return false;
  Type *Element = Op.Ty;
  unsigned Bytes = Element->getPrimitiveSizeInBits() / 8;
  for (unsigned K = 0; K < Count; ++K) {
    Value *At = K ? B.CreateConstInBoundsGEP1_64(Element, Ptr, K) : Ptr;
    LoadInst *Part = B.CreateAlignedLoad(
        Element, At, Align(K ? Bytes : Count * Bytes), Volatile);
    if (!write(Dests[K], Part))
      return false;
  }
  return true;
}

/// `cvt[.MODE].D.S d, a;` between floats, integers and the two (MODE: `rn`
/// where a float is rounded, `rzi`, `rni`, `rmi`, `rpi` where a float
/// becomes an integer, which saturates as PTX's does), and `cvt.rn.D.f32 d,
/// a, b;`, which packs two floats into a pair of halves (a in the upper).
bool PtxTranslator::convert(const Opcode &Op, ArrayRef<StringRef> Operands) {
  ArrayRef<StringRef> Mods = Op.Modifiers;
  Type *To = Mods.empty() ? nullptr : typeNamed(Mods.back());
  if (!To || To->isIntegerTy(1) || Op.Ty->isIntegerTy(1) || Op.Ty->isVectorTy())
    return false;
  Mods = Mods.drop_back();
  StringRef Mode = Mods.size() == 1 ? Mods[0] : "";
  if (Mods.size() > 1 || (Mods.size() == 1 && Mode.empty()))
    return false;
  Type *From = Op.Ty;
  bool SignedFrom = Op.TypeName.starts_with("s");
  bool SignedTo = Op.Modifiers.back().starts_with("s");
  if (auto *Pair = dyn_cast<FixedVectorType>(To)) {
    Value *Hi = Operands.size() == 3 ? read(Operands[1], From) : nullptr;
    Value *Lo = Hi ? read(Operands[2], From) : nullptr;
    if (!Lo || Mode != "rn" || !From->isFloatTy())
      return false;
    Type *Element = Pair->getElementType();
    Value *V = PoisonValue::get(Pair);
    V = B.CreateInsertElement(V, B.CreateFPTrunc(Lo, Element), uint64_t(0));
    V = B.CreateInsertElement(V, B.CreateFPTrunc(Hi, Element), uint64_t(1));
    return write(Operands[0], V);
  }
  Value *S = Operands.size() == 2 ? read(Operands[1], From) : nullptr;
  if (!S)
    return false;
  unsigned FromBits = From->getPrimitiveSizeInBits();
  unsigned ToBits = To->getPrimitiveSizeInBits();
  Value *R = nullptr;
  if (From->isFloatingPointTy() && To->isFloatingPointTy()) {
    if (FromBits < ToBits && Mode.empty())
      R = B.CreateFPExt(S, To);
    else if (FromBits > ToBits && Mode == "rn")
      R = B.CreateFPTrunc(S, To);
  } else if (From->isIntegerTy() && To->isFloatingPointTy()) {
    if (Mode == "rn")
      R = SignedFrom ? B.CreateSIToFP(S, To) : B.CreateUIToFP(S, To);
  } else if (From->isFloatingPointTy()) {
    Intrinsic::ID Round = StringSwitch<Intrinsic::ID>(Mode)
                              .Case("rzi", Intrinsic::trunc)
                              .Case("rni", Intrinsic::roundeven)
                              .Case("rmi", Intrinsic::floor)
                              .Case("rpi", Intrinsic::ceil)
                              .Default(Intrinsic::not_intrinsic);
    if (Round != Intrinsic::not_intrinsic) {
      if (Round != Intrinsic::trunc)
        S = B.CreateUnaryIntrinsic(Round, S);
      R = B.CreateIntrinsic(SignedTo ? Intrinsic::fptosi_sat
                                     : Intrinsic::fptoui_sat,
                            {To, From}, {S});
    }
  } else if (Mode.empty()) {
    R = B.CreateIntCast(S, To, SignedFrom);
  }
  return R && write(Operands[0], R);
}

/// `setp.CMP[.ftz].T p, a, b;` and `set.CMP[.ftz].D.T d, a, b;`, where d is
/// 1.0 or 0.0 for a float D and all ones or zero for an integer D (each half
/// of a pair on its own).
bool PtxTranslator::compare(const Opcode &Op, ArrayRef<StringRef> Operands) {
  bool Set = Op.Name == "set";
  ArrayRef<StringRef> Mods = Op.Modifiers;
  Type *To = Set && !Mods.empty() ? typeNamed(Mods.back()) : nullptr;
  if (Set && (!To || To->isIntegerTy(1)))
    return false;
  if (Set)
    Mods = Mods.drop_back();
  if (Mods.empty() || Mods.size() > 2 ||
      (Mods.size() == 2 && Mods[1] != "ftz") || Operands.size() != 3 ||
      (!Set && Op.Ty->isVectorTy()) || Op.Ty->isIntegerTy(1))
    return false;
  bool Float = Op.Ty->isFPOrFPVectorTy();
  bool Signed = Op.TypeName.starts_with("s");
  using P = CmpInst::Predicate;
  P Predicate = Float ? StringSwitch<P>(Mods[0])
                            .Case("eq", P::FCMP_OEQ)
                            .Case("ne", P::FCMP_ONE)
                            .Case("lt", P::FCMP_OLT)
                            .Case("le", P::FCMP_OLE)
                            .Case("gt", P::FCMP_OGT)
                            .Case("ge", P::FCMP_OGE)
                            .Case("equ", P::FCMP_UEQ)
                            .Case("neu", P::FCMP_UNE)
                            .Case("ltu", P::FCMP_ULT)
                            .Case("leu", P::FCMP_ULE)
                            .Case("gtu", P::FCMP_UGT)
                            .Case("geu", P::FCMP_UGE)
                            .Case("num", P::FCMP_ORD)
                            .Case("nan", P::FCMP_UNO)
                            .Default(P::BAD_FCMP_PREDICATE)
                      : StringSwitch<P>(Mods[0])
                            .Case("eq", P::ICMP_EQ)
                            .Case("ne", P::ICMP_NE)
                            .Case("lt", Signed ? P::ICMP_SLT : P::ICMP_ULT)
                            .Case("le", Signed ? P::ICMP_SLE : P::ICMP_ULE)
                            .Case("gt", Signed ? P::ICMP_SGT : P::ICMP_UGT)
                            .Case("ge", Signed ? P::ICMP_SGE : P::ICMP_UGE)
                            .Case("lo", P::ICMP_ULT)
                            .Case("ls", P::ICMP_ULE)
                            .Case("hi", P::ICMP_UGT)
                            .Case("hs", P::ICMP_UGE)
                            .Default(P::BAD_ICMP_PREDICATE);
  if (Predicate == P::BAD_FCMP_PREDICATE || Predicate == P::BAD_ICMP_PREDICATE)
    return false;
  Value *L = read(Operands[1], Op.Ty);
  Value *R = L ? read(Operands[2], Op.Ty) : nullptr;
  if (!R)
    return false;
  Value *C =
      Float ? B.CreateFCmp(Predicate, L, R) : B.CreateICmp(Predicate, L, R);
  if (!Set)
    return write(Operands[0], C);
  // A pair of results for a pair of operands; one otherwise.
  auto *Lanes = dyn_cast<FixedVectorType>(C->getType());
  auto *Pair = dyn_cast<FixedVectorType>(To);
  if (bool(Lanes) != bool(Pair) ||
      (Pair && Pair->getNumElements() != Lanes->getNumElements()))
    return false;
  Type *Element = Pair ? Pair->getElementType() : To;
  Value *True = Element->isFloatingPointTy() ? ConstantFP::get(To, 1.0)
                                             : Constant::getAllOnesValue(To);
  return write(Operands[0],
               B.CreateSelect(C, True, Constant::getNullValue(To)));
}

/// `rcp`, `sqrt` (`.rn` or `.approx`, and `.ftz`) and `rsqrt.approx[.ftz]`
/// of a float: computed correctly rounded, whose derivative is the
/// approximation's. `ex2`, `lg2`, `sin` and `cos` (`.approx[.ftz].f32`, as
/// cuda_fp16.h's hexp, hlog, hsin and hcos compute): NVVM's approximations,
/// which the rules read as exp2, log2, sin and cos.
bool PtxTranslator::approximate(const Opcode &Op,
                                ArrayRef<StringRef> Operands) {
  ArrayRef<StringRef> Mods = Op.Modifiers;
  bool FlushToZero = !Mods.empty() && Mods.back() == "ftz";
  if (FlushToZero)
    Mods = Mods.drop_back();
  if (Op.Name == "ex2" || Op.Name == "lg2" || Op.Name == "sin" ||
      Op.Name == "cos") {
    using ID = Intrinsic::ID;
    auto [Plain, Flushed] = StringSwitch<std::pair<ID, ID>>(Op.Name)
                                .Case("ex2", {Intrinsic::nvvm_ex2_approx_f,
                                              Intrinsic::nvvm_ex2_approx_ftz_f})
                                .Case("lg2", {Intrinsic::nvvm_lg2_approx_f,
                                              Intrinsic::nvvm_lg2_approx_ftz_f})
                                .Case("sin", {Intrinsic::nvvm_sin_approx_f,
                                              Intrinsic::nvvm_sin_approx_ftz_f})
                                .Default({Intrinsic::nvvm_cos_approx_f,
                                          Intrinsic::nvvm_cos_approx_ftz_f});
    Value *S = Mods == ArrayRef<StringRef>{"approx"} && Op.Ty->isFloatTy() &&
                       Operands.size() == 2
                   ? read(Operands[1], Op.Ty)
                   : nullptr;
    return S && write(Operands[0], B.CreateIntrinsic(
                                       FlushToZero ? Flushed : Plain, {}, {S}));
  }
  bool Rsqrt = Op.Name == "rsqrt";
  if (Mods.size() != 1 ||
      !(Mods[0] == "approx" || (!Rsqrt && Mods[0] == "rn")) ||
      !(Op.Ty->isFloatTy() || Op.Ty->isDoubleTy()) || Operands.size() != 2)
    return false;
  Value *S = read(Operands[1], Op.Ty);
  if (!S)
    return false;
  Value *One = ConstantFP::get(Op.Ty, 1.0);
  Value *R = Op.Name == "rcp" ? B.CreateFDiv(One, S)
                              : B.CreateUnaryIntrinsic(Intrinsic::sqrt, S);
  if (Rsqrt)
    R = B.CreateFDiv(One, R);
  return write(Operands[0], R);
}

/// `and`, `or`, `xor` and `not` of bits or predicates.
bool PtxTranslator::bitwise(const Opcode &Op, ArrayRef<StringRef> Operands) {
  bool Not = Op.Name == "not";
  if (!Op.Modifiers.empty() || !Op.Ty->isIntegerTy() ||
      !(Op.TypeName.starts_with("b") || Op.TypeName == "pred") ||
      Operands.size() != (Not ? 2u : 3u))
    return false;
  Value *L = read(Operands[1], Op.Ty);
  Value *R = L && !Not ? read(Operands[2], Op.Ty) : nullptr;
  if (!L || (!Not && !R))
    return false;
  Value *V = Not                ? B.CreateNot(L)
             : Op.Name == "and" ? B.CreateAnd(L, R)
             : Op.Name == "or"  ? B.CreateOr(L, R)
                                : B.CreateXor(L, R);
  return write(Operands[0], V);
}

/// `atom[.relaxed][.SCOPE][.global].OP[.noftz].T d, [a], b;` (OP: add,
/// exch, min, max, and, or, xor), as libcu++'s `cuda::atomic_ref` and
/// cuda_fp16.h's `atomicAdd` write them: a monotonic atomicrmw at system
/// scope (the strongest, whatever scope the statement names).
bool PtxTranslator::atomic(const Opcode &Op, ArrayRef<StringRef> Operands) {
  AtomicOrdering Order = AtomicOrdering::Monotonic;
  StringRef Operation;
  for (StringRef M : Op.Modifiers) {
    std::optional<AtomicOrdering> Named =
        StringSwitch<std::optional<AtomicOrdering>>(M)
            .Case("relaxed", AtomicOrdering::Monotonic)
            .Case("acquire", AtomicOrdering::Acquire)
            .Case("release", AtomicOrdering::Release)
            .Case("acq_rel", AtomicOrdering::AcquireRelease)
            .Default(std::nullopt);
    if (Named)
      Order = *Named;
    else if (M == "cta" || M == "cluster" || M == "gpu" || M == "sys" ||
             M == "global" || M == "noftz")
      continue;
    else if (Operation.empty())
      Operation = M;
    else
      return false;
  }
  bool Float = Op.Ty->isFloatingPointTy();
  bool Signed = Op.TypeName.starts_with("s");
  using K = AtomicRMWInst::BinOp;
  K Kind = StringSwitch<K>(Operation)
               .Case("add", Float ? K::FAdd : K::Add)
               .Case("exch", K::Xchg)
               .Case("min", Signed ? K::Min : K::UMin)
               .Case("max", Signed ? K::Max : K::UMax)
               .Case("and", K::And)
               .Case("or", K::Or)
               .Case("xor", K::Xor)
               .Default(K::BAD_BINOP);
  StringRef Address = Operands.size() == 3 ? Operands[1] : "";
  // An ordered one stays assembly: it orders memory between blocks (a
  // grid's synchronisation), which the engine must see to refuse it.
  if (Order != AtomicOrdering::Monotonic || Guard || Kind == K::BAD_BINOP ||
      Op.Ty->isVectorTy() || Op.Ty->isIntegerTy(1) ||
      (Float && Kind != K::FAdd && Kind != K::Xchg) ||
      !Address.consume_front("[") || !Address.consume_back("]"))
    return false;
  Value *Ptr = read(Address.trim(), nullptr);
  if (Ptr && Ptr->getType()->isIntegerTy(64))
    Ptr = B.CreateIntToPtr(Ptr, B.getPtrTy());
  Value *V =
      Ptr && Ptr->getType()->isPointerTy() ? read(Operands[2], Op.Ty) : nullptr;
  return V && write(Operands[0],
                    B.CreateAtomicRMW(Kind, Ptr, V, MaybeAlign(), Order));
}

/// `fence.sc[.SCOPE];`, `fence.acq_rel[.SCOPE];` and `membar.SCOPE;`, as
/// libcu++ orders its atomics: NVVM's `membar` of the scope (the NVPTX
/// backend of LLVM 19 selects no IR fence), `gl` for a GPU or cluster,
/// `sys` where none is named.
bool PtxTranslator::fence(StringRef Text) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, '.');
  bool Fence = Parts[0] == "fence" && Parts.size() >= 2 &&
               (Parts[1] == "sc" || Parts[1] == "acq_rel");
  bool Membar = Parts[0] == "membar";
  StringRef Scope = Fence && Parts.size() == 3    ? Parts[2]
                    : Membar && Parts.size() == 2 ? Parts[1]
                                                  : "sys";
  Intrinsic::ID ID =
      StringSwitch<Intrinsic::ID>(Scope)
          .Case("cta", Intrinsic::nvvm_membar_cta)
          .Cases("cluster", "gpu", "gl", Intrinsic::nvvm_membar_gl)
          .Case("sys", Intrinsic::nvvm_membar_sys)
          .Default(Intrinsic::not_intrinsic);
  if (Guard || !(Fence || Membar) || Parts.size() > (Fence ? 3u : 2u) ||
      ID == Intrinsic::not_intrinsic)
    return false;
  Barrier = B.CreateIntrinsic(ID, {}, {});
  return true;
}

/// `add`, `sub`, `mul`, `div`, `min`, `max`, `neg`, `abs`, `fma`, `selp`.
bool PtxTranslator::arithmetic(const Opcode &Op, ArrayRef<StringRef> Operands) {
  Type *Ty = Op.Ty;
  bool Float = Ty->isFPOrFPVectorTy();
  bool Signed = Op.TypeName.starts_with("s");
  if (Ty->isIntegerTy(1))
    return false;
  // The modifiers that do not change what the statement computes here:
  // round to nearest (the IR's), the low half of a product.
  ArrayRef<StringRef> Mods = Op.Modifiers;
  bool Rounded = Mods.size() == 1 && Mods[0] == "rn";
  bool Low = Mods.size() == 1 && Mods[0] == "lo";
  unsigned Sources = StringSwitch<unsigned>(Op.Name)
                         .Cases("add", "sub", "mul", "min", "max", 2)
                         .Case("div", 2)
                         .Cases("neg", "abs", 1)
                         .Cases("fma", "selp", 3)
                         .Default(0);
  bool Typed = Float || !Op.TypeName.starts_with("b");
  bool ModsFit = Mods.empty();
  if (Op.Name == "fma")
    ModsFit = Float && Rounded;
  else if (Op.Name == "mul" && !Float)
    ModsFit = Low;
  else if (Float && (Op.Name == "add" || Op.Name == "sub" || Op.Name == "mul"))
    ModsFit = Mods.empty() || Rounded;
  else if (Op.Name == "div")
    // A float quotient correctly rounded, or approximate (computed exactly
    // here: the derivative is the quotient's).
    ModsFit = Float && (Rounded || Mods == ArrayRef<StringRef>{"approx"} ||
                        Mods == ArrayRef<StringRef>{"full"});
  if (!Sources || Operands.size() != Sources + 1 || !ModsFit ||
      (Op.Name != "selp" && !Typed))
    return false;
  SmallVector<Value *, 3> S;
  for (unsigned K = 1; K <= Sources; ++K) {
    bool Condition = Op.Name == "selp" && K == 3;
    Value *V = read(Operands[K], Condition ? B.getInt1Ty() : Ty);
    if (!V)
      return false;
    S.push_back(V);
  }
  Value *R = nullptr;
  if (Op.Name == "add")
    R = Float ? B.CreateFAdd(S[0], S[1]) : B.CreateAdd(S[0], S[1]);
  else if (Op.Name == "sub")
    R = Float ? B.CreateFSub(S[0], S[1]) : B.CreateSub(S[0], S[1]);
  else if (Op.Name == "mul")
    R = Float ? B.CreateFMul(S[0], S[1]) : B.CreateMul(S[0], S[1]);
  else if (Op.Name == "div")
    R = B.CreateFDiv(S[0], S[1]);
  else if (Op.Name == "neg")
    R = Float ? B.CreateFNeg(S[0]) : B.CreateNeg(S[0]);
  else if (Op.Name == "abs")
    R = Float ? B.CreateUnaryIntrinsic(Intrinsic::fabs, S[0])
              : B.CreateBinaryIntrinsic(Intrinsic::abs, S[0], B.getFalse());
  else if (Op.Name == "fma")
    R = B.CreateIntrinsic(Intrinsic::fma, {Ty}, S);
  else if (Op.Name == "selp")
    R = B.CreateSelect(S[2], S[0], S[1]);
  else {
    // PTX's float min and max return the other operand of a NaN.
    bool Min = Op.Name == "min";
    Intrinsic::ID ID = Float    ? (Min ? Intrinsic::minnum : Intrinsic::maxnum)
                       : Signed ? (Min ? Intrinsic::smin : Intrinsic::smax)
                                : (Min ? Intrinsic::umin : Intrinsic::umax);
    R = B.CreateIntrinsic(ID, {Ty}, S);
  }
  return write(Operands[0], R);
}

bool PtxTranslator::statement(StringRef Text) {
  Text = Text.trim();
  if (Text.empty())
    return true;
  if (Text.starts_with(".reg ") || Text.starts_with(".reg."))
    return declare(Text);
  Guard = nullptr;
  if (Text.consume_front("@")) {
    bool Negated = Text.consume_front("!");
    auto [Name, Rest] = Text.split(' ');
    if (!Declared.count(Name) || !(Guard = read(Name, B.getInt1Ty())))
      return false;
    if (Negated)
      Guard = B.CreateNot(Guard);
    Text = Rest.ltrim();
  }
  auto [OpText, OperandText] = Text.split(' ');
  if (OperandText.trim().empty() &&
      (OpText.starts_with("fence.") || OpText.starts_with("membar.")))
    return fence(OpText);
  SmallVector<StringRef, 4> Parts;
  OpText.split(Parts, '.');
  // Every statement read here names a type (`exit;` and the like do not).
  if (Parts.size() < 2)
    return false;
  Opcode Op;
  Op.Name = Parts.front();
  Op.TypeName = Parts.back();
  Op.Modifiers.append(Parts.begin() + 1, Parts.end() - 1);
  Op.Ty = typeNamed(Op.TypeName);
  SmallVector<StringRef, 5> Operands;
  if (!Op.Ty || !splitOperands(OperandText, Operands))
    return false;
  if (Op.Name == "mov")
    return move(Op, Operands);
  if (Op.Name == "shfl")
    return shuffle(Op, Operands);
  if (Op.Name == "ld")
    return cachedLoad(Op, Operands);
  if (Op.Name == "cvt")
    return convert(Op, Operands);
  if (Op.Name == "setp" || Op.Name == "set")
    return compare(Op, Operands);
  if (Op.Name == "rcp" || Op.Name == "sqrt" || Op.Name == "rsqrt" ||
      Op.Name == "ex2" || Op.Name == "lg2" || Op.Name == "sin" ||
      Op.Name == "cos")
    return approximate(Op, Operands);
  if (Op.Name == "atom")
    return atomic(Op, Operands);
  if (Op.Name == "and" || Op.Name == "or" || Op.Name == "xor" ||
      Op.Name == "not")
    return bitwise(Op, Operands);
  return arithmetic(Op, Operands);
}

/// The statement's outputs as the call returns them.
Value *PtxTranslator::result() {
  Type *RetTy = Call.getType();
  auto *ST = dyn_cast<StructType>(RetTy);
  unsigned Count = Ops.Outputs.size();
  // A statement without outputs stands for the fence it is.
  if (Count == 0)
    return RetTy->isVoidTy() ? Barrier : nullptr;
  if (ST ? ST->getNumElements() != Count : Count != 1)
    return nullptr;
  Value *Result = PoisonValue::get(RetTy);
  for (unsigned N = 0; N < Count; ++N) {
    Value *V = read("$" + std::to_string(N), nullptr);
    V = V ? coerce(V, ST ? ST->getElementType(N) : RetTy) : nullptr;
    if (!V)
      return nullptr;
    Result = ST ? B.CreateInsertValue(Result, V, N) : V;
  }
  return Result;
}

Value *PtxTranslator::run(StringRef Text) {
  if ((Ops.Outputs.empty() && !Call.getType()->isVoidTy()) ||
      any_of(Ops.Outputs,
             [](const AsmOperands::Output &O) { return O.Indirect; }))
    return nullptr;
  // Tabs and line breaks separate like spaces.
  std::string Spaced = Text.str();
  for (char &C : Spaced)
    if (isSpace(C))
      C = ' ';
  // Blocks nest, each a scope of the registers it declares; a brace where a
  // statement would begin opens or closes one (others are operands').
  // Statements outside any block are in an outermost one.
  Scopes.emplace_back();
  bool AtStatement = true;
  size_t Start = 0;
  for (size_t I = 0; I < Spaced.size(); ++I) {
    char C = Spaced[I];
    if (AtStatement && C == ' ')
      continue;
    if (AtStatement && C == '{') {
      Scopes.emplace_back();
      continue;
    }
    if (AtStatement && C == '}') {
      if (Scopes.size() < 2)
        return nullptr;
      closeScope();
      continue;
    }
    if (AtStatement)
      Start = I, AtStatement = false;
    if (C == ';') {
      if (!statement(StringRef(Spaced).slice(Start, I)))
        return nullptr;
      AtStatement = true;
    }
  }
  // Every statement ends with a semicolon, and every block closes.
  if (!AtStatement || Scopes.size() != 1)
    return nullptr;
  return result();
}

Value *translatePtxStatements(CallInst &Call, const AsmOperands &Ops) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm)
    return nullptr;
  Instruction *Before = Call.getPrevNode();
  Value *Result = PtxTranslator(Call, Ops).run(Asm->getAsmString());
  if (Result)
    return Result;
  // Nothing of a statement not translated whole stays.
  SmallVector<Instruction *, 16> Built;
  for (Instruction *I = Before ? Before->getNextNode()
                               : &Call.getParent()->front();
       I != &Call; I = I->getNextNode())
    Built.push_back(I);
  for (Instruction *I : reverse(Built))
    I->eraseFromParent();
  return nullptr;
}

} // namespace enzyme
