//===- PackedFloatLanes.cpp - Structs the ABI packs into integers ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls that pass or return float lanes packed into an `i64` become calls
/// of a copy of the callee that takes them as lanes (PackedFloatLanes.h).
///
//===----------------------------------------------------------------------===//

#include "Modes/PackedFloatLanes.h"

#include "Core/CompileTimeBodies.h"
#include "Core/UserRegistrations.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace enzyme {

static constexpr unsigned LaneBits = 32, PackedBits = 64;

/// The 32 bits at \p Offset of the integer \p V, as the i32 they were
/// assembled from (by extensions, constant shifts, masks and ors), or null
/// where the operations that build \p V do not show it. An undefined lane
/// is undef: or-ing it with another lane gives that lane (a refinement).
static Value *assembledLane(Value *V, unsigned Offset, unsigned Depth = 0) {
  auto *IntTy = dyn_cast<IntegerType>(V->getType());
  if (!IntTy || Depth > 12 || Offset + LaneBits > IntTy->getBitWidth())
    return nullptr;
  Type *I32 = Type::getInt32Ty(V->getContext());
  if (IntTy->getBitWidth() == LaneBits)
    return V;
  if (auto *C = dyn_cast<ConstantInt>(V))
    return ConstantInt::get(I32, C->getValue().extractBits(LaneBits, Offset));
  if (isa<UndefValue>(V))
    return UndefValue::get(I32);
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return nullptr;
  auto *Amount = I->getNumOperands() == 2
                     ? dyn_cast<ConstantInt>(I->getOperand(1))
                     : nullptr;
  switch (I->getOpcode()) {
  case Instruction::ZExt: {
    unsigned Width = I->getOperand(0)->getType()->getScalarSizeInBits();
    if (Offset >= Width)
      return ConstantInt::get(I32, 0);
    return Offset + LaneBits <= Width
               ? assembledLane(I->getOperand(0), Offset, Depth + 1)
               : nullptr;
  }
  case Instruction::Shl:
    if (!Amount || Amount->getValue().uge(IntTy->getBitWidth()))
      return nullptr;
    if (Offset + LaneBits <= Amount->getZExtValue())
      return ConstantInt::get(I32, 0);
    return Offset >= Amount->getZExtValue()
               ? assembledLane(I->getOperand(0),
                               Offset - Amount->getZExtValue(), Depth + 1)
               : nullptr;
  case Instruction::LShr:
    if (!Amount || Amount->getValue().uge(IntTy->getBitWidth()))
      return nullptr;
    return assembledLane(I->getOperand(0), Offset + Amount->getZExtValue(),
                         Depth + 1);
  case Instruction::And: {
    if (!Amount)
      return nullptr;
    APInt Mask = Amount->getValue().extractBits(LaneBits, Offset);
    if (Mask.isZero())
      return ConstantInt::get(I32, 0);
    return Mask.isAllOnes() ? assembledLane(I->getOperand(0), Offset, Depth + 1)
                            : nullptr;
  }
  case Instruction::Or: {
    Value *A = assembledLane(I->getOperand(0), Offset, Depth + 1);
    Value *B = A ? assembledLane(I->getOperand(1), Offset, Depth + 1) : nullptr;
    if (!B)
      return nullptr;
    auto IsNothing = [](Value *L) {
      auto *C = dyn_cast<Constant>(L);
      return C && (C->isNullValue() || isa<UndefValue>(C));
    };
    if (IsNothing(A))
      return B;
    return IsNothing(B) ? A : nullptr;
  }
  default:
    return nullptr;
  }
}

/// The 4 bytes at \p Offset from \p Ptr are a float field of the declared
/// type of the local or global \p Ptr points into, or of the element a
/// typed address at a variable index names.
static bool declaredFloatAt(Value *Ptr, uint64_t Offset, const DataLayout &DL) {
  int64_t Base = 0;
  Value *Object = GetPointerBaseWithConstantOffset(Ptr, Base, DL);
  Type *Ty = nullptr;
  if (auto *Alloca = dyn_cast_or_null<AllocaInst>(Object))
    Ty = Alloca->getAllocatedType();
  else if (auto *Global = dyn_cast_or_null<GlobalVariable>(Object))
    Ty = Global->getValueType();
  else if (auto *Element = dyn_cast_or_null<GetElementPtrInst>(Object))
    Ty = Element->getResultElementType(); // an element at a variable index
  if (!Ty || Base < 0)
    return false;
  uint64_t At = Base + Offset;
  while (Ty && !Ty->isFloatTy()) {
    if (auto *ST = dyn_cast<StructType>(Ty)) {
      const StructLayout *Layout = DL.getStructLayout(ST);
      if (At >= Layout->getSizeInBytes())
        return false;
      unsigned I = Layout->getElementContainingOffset(At);
      At -= Layout->getElementOffset(I);
      Ty = ST->getElementType(I);
    } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
      if (!Size || At / Size >= AT->getNumElements())
        return false;
      At %= Size;
      Ty = AT->getElementType();
    } else {
      return false;
    }
  }
  return Ty && At == 0;
}

/// The float whose bits are the lane at \p Offset of \p Packed, or null.
static Value *floatLane(Value *Packed, unsigned Offset) {
  auto *Cast = dyn_cast_or_null<BitCastInst>(assembledLane(Packed, Offset));
  return Cast && Cast->getSrcTy()->isFloatTy() ? Cast->getOperand(0) : nullptr;
}

/// The address \p Offset bytes past \p Ptr.
static Value *bytesPast(IRBuilder<> &B, Value *Ptr, unsigned Offset) {
  return Offset ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Offset)
                : Ptr;
}

/// The reads of \p Packed's lanes as floats: `bitcast (trunc (lshr
/// %packed, 32K)) to float`, each with its lane K.
static void collectFloatLaneReads(
    Value &Packed, SmallVectorImpl<std::pair<BitCastInst *, unsigned>> &Reads) {
  auto FromTrunc = [&](User *U, unsigned K) {
    if (auto *Trunc = dyn_cast<TruncInst>(U);
        Trunc && Trunc->getType()->isIntegerTy(LaneBits))
      for (User *V : Trunc->users())
        if (auto *Cast = dyn_cast<BitCastInst>(V);
            Cast && Cast->getType()->isFloatTy())
          Reads.push_back({Cast, K});
  };
  for (User *U : Packed.users()) {
    FromTrunc(U, 0);
    if (auto *Shift = dyn_cast<BinaryOperator>(U);
        Shift && Shift->getOpcode() == Instruction::LShr &&
        Shift->getOperand(0) == &Packed)
      if (auto *C = dyn_cast<ConstantInt>(Shift->getOperand(1));
          C && C->getValue() == LaneBits)
        for (User *V : Shift->users())
          FromTrunc(V, 1);
  }
}

/// Stores the lanes of each i64 that \p F assembles with a float lane and
/// stores, the floats as floats (the same bytes); and reads each float lane
/// that \p F reads out of a loaded i64 with a load of the float. True if
/// something changed.
static bool splitPackedMemoryAccesses(Function &F) {
  if (!F.getDataLayout().isLittleEndian())
    return false;
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    if (auto *Store = dyn_cast<StoreInst>(&I);
        Store && Store->isSimple() &&
        Store->getValueOperand()->getType()->isIntegerTy(PackedBits)) {
      Value *Packed = Store->getValueOperand();
      Value *Floats[2] = {floatLane(Packed, 0), floatLane(Packed, LaneBits)};
      if (!Floats[0] && !Floats[1])
        continue;
      IRBuilder<> B(Store);
      for (unsigned K = 0; K < 2; ++K) {
        Value *Lane = Floats[K];
        if (!Lane)
          Lane = B.CreateTrunc(K ? B.CreateLShr(Packed, K * LaneBits) : Packed,
                               B.getInt32Ty());
        StoreInst *Part = B.CreateAlignedStore(
            Lane, bytesPast(B, Store->getPointerOperand(), 4 * K),
            commonAlignment(Store->getAlign(), 4 * K));
        Part->copyMetadata(*Store, {LLVMContext::MD_dbg});
      }
      Store->eraseFromParent();
      Changed = true;
      continue;
    }
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Load->isSimple() || !Load->getType()->isIntegerTy(PackedBits))
      continue;
    SmallVector<std::pair<BitCastInst *, unsigned>, 4> Reads;
    collectFloatLaneReads(*Load, Reads);
    if (Reads.empty())
      continue;
    IRBuilder<> B(Load);
    LoadInst *Lanes[2] = {nullptr, nullptr};
    for (auto [Cast, K] : Reads) {
      if (!Lanes[K]) {
        Lanes[K] = B.CreateAlignedLoad(
            B.getFloatTy(), bytesPast(B, Load->getPointerOperand(), 4 * K),
            commonAlignment(Load->getAlign(), 4 * K));
        Lanes[K]->copyMetadata(*Load, {LLVMContext::MD_dbg});
      }
      Cast->replaceAllUsesWith(Lanes[K]);
      Cast->eraseFromParent();
    }
    Changed = true;
  }
  return Changed;
}

/// An element of a vector read out of the vector's bits, `trunc (lshr
/// (bitcast <2 x half> %v to i32), 16) to i16` (a `__half2`'s `.y`), as
/// `bitcast (extractelement %v, 1)`; null if \p Trunc is not one.
static Value *vectorElementBits(TruncInst &Trunc) {
  Value *Bits = Trunc.getOperand(0);
  uint64_t Offset = 0;
  if (auto *Shift = dyn_cast<BinaryOperator>(Bits);
      Shift && Shift->getOpcode() == Instruction::LShr)
    if (auto *Amount = dyn_cast<ConstantInt>(Shift->getOperand(1))) {
      Offset = Amount->getZExtValue();
      Bits = Shift->getOperand(0);
    }
  auto *Cast = dyn_cast<BitCastInst>(Bits);
  auto *VecTy = Cast ? dyn_cast<FixedVectorType>(Cast->getSrcTy()) : nullptr;
  if (!VecTy || Trunc.getDataLayout().isBigEndian())
    return nullptr;
  unsigned Width = VecTy->getScalarSizeInBits();
  if (Trunc.getType()->getIntegerBitWidth() != Width || Offset % Width ||
      Offset / Width >= VecTy->getNumElements())
    return nullptr;
  IRBuilder<> B(&Trunc);
  Value *Element = B.CreateExtractElement(Cast->getOperand(0), Offset / Width);
  return B.CreateBitCast(Element, Trunc.getType());
}

bool foldAssembledLanes(Function &F) {
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    Value *By = nullptr;
    if (auto *Trunc = dyn_cast<TruncInst>(&I)) {
      if (Trunc->getType()->isIntegerTy(LaneBits))
        By = assembledLane(Trunc->getOperand(0), 0);
      if (!By)
        By = vectorElementBits(*Trunc);
    } else if (auto *Extract = dyn_cast<ExtractValueInst>(&I);
               Extract && isa<InsertValueInst>(Extract->getAggregateOperand()))
      By = FindInsertedValue(Extract->getAggregateOperand(),
                             Extract->getIndices());
    else if (auto *Cast = dyn_cast<BitCastInst>(&I))
      if (auto *Inner = dyn_cast<BitCastInst>(Cast->getOperand(0));
          Inner && Inner->getSrcTy() == Cast->getType())
        By = Inner->getOperand(0);
    if (!By || By == &I || isa<UndefValue>(By))
      continue;
    I.replaceAllUsesWith(By);
    I.eraseFromParent();
    Changed = true;
  }
  Changed |= splitPackedMemoryAccesses(F);
  return Changed;
}

/// A lane layout: per eightbyte passed or returned as lanes, whether each
/// lane is a float.
namespace {
struct Lanes {
  bool Float[2] = {false, false};
  bool any() const { return Float[0] || Float[1]; }
  Type *type(unsigned K, LLVMContext &Ctx) const {
    return Float[K] ? Type::getFloatTy(Ctx) : Type::getInt32Ty(Ctx);
  }
  char code(unsigned K) const { return Float[K] ? 'f' : 'i'; }
};
} // namespace

/// The function behind a registration, a user's attribute or a launch: its
/// calls stay as they are.
static bool hasUserMark(const Function &F) {
  for (const Attribute &A : F.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString().starts_with("enzyme"))
      return true;
  return F.getName().contains("__device_stub__") ||
         isNamedByRegistration(F, "__enzyme_");
}

/// Bits [32K, 32K + 32) of \p Packed, as lane \p K of \p Layout.
static Value *extractLane(IRBuilder<> &B, Value *Packed, unsigned K,
                          const Lanes &Layout) {
  Value *V = K ? B.CreateLShr(Packed, K * LaneBits) : Packed;
  V = B.CreateTrunc(V, B.getInt32Ty());
  return Layout.Float[K] ? B.CreateBitCast(V, B.getFloatTy()) : V;
}

/// The i64 that lanes \p L0 and \p L1 make.
static Value *assembleLanes(IRBuilder<> &B, Value *L0, Value *L1) {
  auto Bits = [&](Value *L) {
    return B.CreateZExt(B.CreateBitCast(L, B.getInt32Ty()), B.getInt64Ty());
  };
  return B.CreateOr(Bits(L0), B.CreateShl(Bits(L1), LaneBits));
}

/// The eightbytes of a result: per element of a returned struct (or the
/// one returned value), its lanes or none.
using ResultLanes = SmallVector<std::optional<Lanes>, 2>;

/// The type of \p Ty, a result, with the eightbytes \p Result lays out
/// flattened into their lanes.
static Type *resultWithLanes(Type *Ty, const ResultLanes &Result) {
  if (Result.empty())
    return Ty;
  LLVMContext &Ctx = Ty->getContext();
  SmallVector<Type *, 4> Elements;
  for (auto [Index, Layout] : enumerate(Result)) {
    Type *Element = isa<StructType>(Ty) ? Ty->getStructElementType(Index) : Ty;
    if (!Layout) {
      Elements.push_back(Element);
      continue;
    }
    Elements.push_back(Layout->type(0, Ctx));
    Elements.push_back(Layout->type(1, Ctx));
  }
  return StructType::get(Ctx, Elements);
}

/// The name of \p Callee's function of kind \p Kind ("lanes": its lane
/// copy) for the lane layouts \p Params and \p Result.
static std::string laneFunctionName(const Function &Callee, StringRef Kind,
                                    ArrayRef<std::optional<Lanes>> Params,
                                    const ResultLanes &Result) {
  std::string Name = (Callee.getName() + "." + Kind + ".").str();
  auto Code = [&](const std::optional<Lanes> &L) {
    return L ? std::string{L->code(0), L->code(1)} : std::string("-");
  };
  for (const std::optional<Lanes> &P : Params)
    Name += Code(P);
  if (!Result.empty())
    Name += ".";
  for (const std::optional<Lanes> &R : Result)
    Name += Code(R);
  return Name;
}

/// \p FT with the eightbytes \p Params and \p Result lay out as lanes.
static FunctionType *laneFunctionType(FunctionType *FT,
                                      ArrayRef<std::optional<Lanes>> Params,
                                      const ResultLanes &Result) {
  LLVMContext &Ctx = FT->getContext();
  SmallVector<Type *, 8> ParamTypes;
  for (auto [Param, Layout] : zip(FT->params(), Params)) {
    if (!Layout) {
      ParamTypes.push_back(Param);
      continue;
    }
    ParamTypes.push_back(Layout->type(0, Ctx));
    ParamTypes.push_back(Layout->type(1, Ctx));
  }
  return FunctionType::get(resultWithLanes(FT->getReturnType(), Result),
                           ParamTypes, false);
}

/// \p Old, a result, with the eightbytes \p Result lays out as the lanes
/// of \p ResultType.
static Value *resultAsLanes(IRBuilder<> &B, Value *Old, Type *ResultType,
                            const ResultLanes &Result) {
  bool Aggregate = isa<StructType>(Old->getType());
  Value *New = PoisonValue::get(ResultType);
  unsigned Slot = 0;
  for (auto [Index, Layout] : enumerate(Result)) {
    Value *Element = Aggregate ? B.CreateExtractValue(Old, Index) : Old;
    if (!Layout) {
      New = B.CreateInsertValue(New, Element, Slot++);
      continue;
    }
    for (unsigned K = 0; K < 2; ++K)
      New =
          B.CreateInsertValue(New, extractLane(B, Element, K, *Layout), Slot++);
  }
  return New;
}

/// \p Callee's copy that takes the eightbytes \p Params lays out (by
/// parameter; none: as before) as lanes, and returns those \p Result lays
/// out as lanes.
static Function &laneCopy(Function &Callee,
                          ArrayRef<std::optional<Lanes>> Params,
                          const ResultLanes &Result) {
  std::string Name = laneFunctionName(Callee, "lanes", Params, Result);
  Module &M = *Callee.getParent();
  if (Function *Existing = M.getFunction(Name))
    return *Existing;

  LLVMContext &Ctx = M.getContext();
  const Function &Body = bodyToDifferentiate(Callee);
  FunctionType *CopyType =
      laneFunctionType(Body.getFunctionType(), Params, Result);
  Type *ResultType = CopyType->getReturnType();
  Function *Copy =
      Function::Create(CopyType, GlobalValue::InternalLinkage, Name, M);
  // The eightbytes are assembled first in the copied entry block.
  auto *Assembly = BasicBlock::Create(Ctx, "lanes", Copy);
  IRBuilder<> B(Assembly);
  ValueToValueMapTy VMap;
  unsigned Next = 0;
  for (auto [Arg, Layout] : zip(Body.args(), Params)) {
    if (!Layout) {
      Copy->getArg(Next)->setName(Arg.getName());
      VMap[&Arg] = Copy->getArg(Next++);
      continue;
    }
    Value *L0 = Copy->getArg(Next++), *L1 = Copy->getArg(Next++);
    VMap[&Arg] = assembleLanes(B, L0, L1);
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Copy, &Body, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setComdat(nullptr);
  for (Argument &A : Copy->args())
    Copy->removeParamAttr(A.getArgNo(), Attribute::Returned);
  Copy->removeRetAttrs(AttributeFuncs::typeIncompatible(ResultType));
  BasicBlock *Entry = &*std::next(Copy->begin());
  for (Instruction &I : make_early_inc_range(reverse(*Assembly)))
    I.moveBefore(*Entry, Entry->getFirstInsertionPt());
  Assembly->eraseFromParent();
  if (Result.empty())
    return *Copy;
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> R(Ret);
    R.CreateRet(resultAsLanes(R, Ret->getReturnValue(), ResultType, Result));
    Ret->eraseFromParent();
  }
  return *Copy;
}

/// A function of the type \p Target's lane copy would have that calls
/// \p Target itself: the lanes packed again into its arguments, its result
/// unpacked into lanes. For a possible target of a call through a pointer
/// whose calls stay as they are (hasUserMark): its mark applies to the call
/// inside as to a direct call (an inactive function is constant; one with a
/// custom derivative meets the engine's check of floats passed as integers).
static Function &laneWrapper(Function &Target,
                             ArrayRef<std::optional<Lanes>> Params,
                             const ResultLanes &Result) {
  std::string Name = laneFunctionName(Target, "lanes.call", Params, Result);
  Module &M = *Target.getParent();
  if (Function *Existing = M.getFunction(Name))
    return *Existing;
  FunctionType *WrapperType =
      laneFunctionType(Target.getFunctionType(), Params, Result);
  Function *Wrapper =
      Function::Create(WrapperType, GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Wrapper));
  SmallVector<Value *, 8> Args;
  unsigned Next = 0;
  for (const std::optional<Lanes> &Layout : Params) {
    if (!Layout) {
      Args.push_back(Wrapper->getArg(Next++));
      continue;
    }
    Value *L0 = Wrapper->getArg(Next++), *L1 = Wrapper->getArg(Next++);
    Args.push_back(assembleLanes(B, L0, L1));
  }
  CallInst *Call = B.CreateCall(&Target, Args);
  Call->setCallingConv(Target.getCallingConv());
  if (WrapperType->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else if (Result.empty())
    B.CreateRet(Call);
  else
    B.CreateRet(resultAsLanes(B, Call, WrapperType->getReturnType(), Result));
  return *Wrapper;
}

/// Which lanes of \p Packed its users read as floats.
static Lanes floatLanesRead(Value &Packed) {
  SmallVector<std::pair<BitCastInst *, unsigned>, 4> Reads;
  collectFloatLaneReads(Packed, Reads);
  Lanes Read;
  for (auto [Cast, K] : Reads)
    Read.Float[K] = true;
  // Stored whole into memory whose declared type has a float there (a
  // local that checks keep in memory: -fsanitize=undefined takes the
  // addresses of its fields at -O0).
  if (auto *I = dyn_cast<Instruction>(&Packed)) {
    const DataLayout &DL = I->getDataLayout();
    for (User *U : Packed.users())
      if (auto *Store = dyn_cast<StoreInst>(U);
          Store && Store->getValueOperand() == &Packed)
        for (unsigned K = 0; K < 2; ++K)
          Read.Float[K] |=
              declaredFloatAt(Store->getPointerOperand(), K * 4, DL);
  }
  return Read;
}

/// The eightbytes of \p Call's result whose float lanes its users read: of
/// an i64, or of the i64 elements of a returned struct (`{ i64, double }`).
/// Empty when none.
static ResultLanes floatLanesReturned(CallInst &Call) {
  ResultLanes Result;
  bool Any = false;
  Type *Ty = Call.getType();
  if (Ty->isIntegerTy(PackedBits)) {
    Lanes Read = floatLanesRead(Call);
    Result.push_back(Read.any() ? std::optional<Lanes>(Read) : std::nullopt);
    Any = Read.any();
  } else if (auto *ST = dyn_cast<StructType>(Ty)) {
    Result.resize(ST->getNumElements());
    for (User *U : Call.users())
      if (auto *Extract = dyn_cast<ExtractValueInst>(U);
          Extract && Extract->getNumIndices() == 1 &&
          Extract->getType()->isIntegerTy(PackedBits)) {
        Lanes Read = floatLanesRead(*Extract);
        if (!Read.any())
          continue;
        std::optional<Lanes> &Slot = Result[Extract->getIndices()[0]];
        if (!Slot)
          Slot = Lanes();
        for (unsigned K = 0; K < 2; ++K)
          Slot->Float[K] |= Read.Float[K];
        Any = true;
      }
  }
  if (!Any)
    Result.clear();
  return Result;
}

/// The result of type \p Ty that \p New, a call of a lane copy that
/// returns the eightbytes \p Result lays out as lanes, stands for.
static Value *resultFromLanes(IRBuilder<> &B, Value *New, Type *Ty,
                              const ResultLanes &Result) {
  Value *Old = PoisonValue::get(Ty);
  unsigned Slot = 0;
  for (auto [Index, Layout] : enumerate(Result)) {
    Value *Element;
    if (Layout) {
      Value *L0 = B.CreateExtractValue(New, Slot++);
      Element = assembleLanes(B, L0, B.CreateExtractValue(New, Slot++));
    } else {
      Element = B.CreateExtractValue(New, Slot++);
    }
    if (!isa<StructType>(Ty))
      return Element;
    Old = B.CreateInsertValue(Old, Element, Index);
  }
  return Old;
}

/// Lane \p K of \p Packed, an i64 loaded from memory, is a float field of
/// the memory's declared type (at -O0 and where a struct stays in memory).
static bool loadedFloatLane(Value *Packed, unsigned K) {
  auto *Load = dyn_cast<LoadInst>(Packed);
  return Load && Load->isSimple() &&
         declaredFloatAt(Load->getPointerOperand(), 4 * K,
                         Load->getDataLayout());
}

/// The float lanes of the eightbytes \p Body returns, as its returned
/// values are assembled or as the memory they are loaded from is declared
/// (a local struct at -O0). Empty when none.
static ResultLanes returnedFloatLanes(const Function &Body) {
  Type *Ty = Body.getReturnType();
  auto *ST = dyn_cast<StructType>(Ty);
  unsigned N = ST ? ST->getNumElements() : 1;
  const DataLayout &DL = Body.getDataLayout();
  ResultLanes Result(N);
  bool Any = false;
  for (const BasicBlock &BB : Body) {
    const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret || !Ret->getReturnValue())
      continue;
    Value *V = const_cast<Value *>(Ret->getReturnValue());
    for (unsigned E = 0; E < N; ++E) {
      Type *ElementTy = ST ? ST->getElementType(E) : Ty;
      if (!ElementTy->isIntegerTy(PackedBits))
        continue;
      Value *Element = ST ? FindInsertedValue(V, {E}) : V;
      // An aggregate loaded whole: the element's bytes in that memory.
      auto *Whole = ST ? dyn_cast<LoadInst>(V) : nullptr;
      for (unsigned K = 0; K < 2; ++K) {
        bool Float = Element && (floatLane(Element, K * LaneBits) ||
                                 loadedFloatLane(Element, K));
        if (!Float && Whole && Whole->isSimple())
          Float = declaredFloatAt(
              Whole->getPointerOperand(),
              DL.getStructLayout(ST)->getElementOffset(E) + 4 * K, DL);
        if (!Float)
          continue;
        if (!Result[E])
          Result[E] = Lanes();
        Result[E]->Float[K] = Any = true;
      }
    }
  }
  if (!Any)
    Result.clear();
  return Result;
}

/// The float lanes of each i64 argument of \p Call (none for others);
/// false when it passes none.
static bool argumentLanes(CallBase &Call,
                          SmallVectorImpl<std::optional<Lanes>> &Params) {
  bool Any = false;
  for (Value *Arg : Call.args()) {
    Lanes Layout;
    if (Arg->getType()->isIntegerTy(PackedBits))
      for (unsigned K = 0; K < 2; ++K)
        Layout.Float[K] =
            floatLane(Arg, K * LaneBits) || loadedFloatLane(Arg, K);
    Params.push_back(Layout.any() ? std::optional<Lanes>(Layout)
                                  : std::nullopt);
    Any |= Layout.any();
  }
  return Any;
}

/// Adds the float lanes of \p From to \p Into.
static void mergeResultLanes(ResultLanes &Into, const ResultLanes &From) {
  if (Into.empty()) {
    Into = From;
    return;
  }
  for (auto [Slot, Lane] : zip(Into, From))
    if (Lane) {
      if (!Slot)
        Slot = Lanes();
      for (unsigned K = 0; K < 2; ++K)
        Slot->Float[K] |= Lane->Float[K];
    }
}

/// \p Call's arguments as a lane copy laid out by \p Params takes them,
/// built with \p B.
static SmallVector<Value *, 8>
laneArguments(IRBuilder<> &B, CallBase &Call,
              ArrayRef<std::optional<Lanes>> Params) {
  SmallVector<Value *, 8> Args;
  for (auto [Arg, Layout] : zip(Call.args(), Params)) {
    if (!Layout) {
      Args.push_back(Arg);
      continue;
    }
    for (unsigned K = 0; K < 2; ++K) {
      Value *Float = Layout->Float[K] ? floatLane(Arg, K * LaneBits) : nullptr;
      if (!Float && Layout->Float[K] && loadedFloatLane(Arg, K)) {
        // Read where the i64 was read, as a float.
        auto *Load = cast<LoadInst>(Arg);
        IRBuilder<> AtLoad(Load);
        LoadInst *Lane = AtLoad.CreateAlignedLoad(
            AtLoad.getFloatTy(),
            bytesPast(AtLoad, Load->getPointerOperand(), 4 * K),
            commonAlignment(Load->getAlign(), 4 * K));
        Lane->copyMetadata(*Load, {LLVMContext::MD_dbg});
        Float = Lane;
      }
      Args.push_back(Float ? Float : extractLane(B, Arg, K, *Layout));
    }
  }
  return Args;
}

/// A function whose lane copy may stand for a call of type \p FT.
static bool canCopyWithLanes(const Function &Callee, FunctionType *FT) {
  return !Callee.isDeclaration() && !Callee.isIntrinsic() &&
         !Callee.isVarArg() && Callee.getFunctionType() == FT &&
         !hasUserMark(Callee);
}

/// A possible target of a call of type \p FT through a pointer that keeps
/// its calls as they are (a user's mark), called through laneWrapper.
static bool canWrapWithLanes(const Function &Target, FunctionType *FT) {
  return !Target.isIntrinsic() && !Target.isVarArg() &&
         Target.getFunctionType() == FT && hasUserMark(Target) &&
         !Target.getName().contains("__device_stub__");
}

/// \p Call, direct, as a call of its callee's lane copy, if it passes or
/// returns float lanes.
static bool unpackDirectCall(CallInst &Call) {
  Function &Callee = *Call.getCalledFunction();
  SmallVector<std::optional<Lanes>, 8> Params;
  bool Any = argumentLanes(Call, Params);
  // The float lanes the caller reads, and those the callee returns.
  ResultLanes Result = floatLanesReturned(Call);
  mergeResultLanes(Result, returnedFloatLanes(bodyToDifferentiate(Callee)));
  if (!Any && Result.empty())
    return false;

  Function &Copy = laneCopy(Callee, Params, Result);
  IRBuilder<> B(&Call);
  CallInst *New = B.CreateCall(&Copy, laneArguments(B, Call, Params));
  New->setDebugLoc(Call.getDebugLoc());
  New->setCallingConv(Call.getCallingConv());
  Value *Replacement = New;
  if (!Result.empty())
    Replacement = resultFromLanes(B, New, Call.getType(), Result);
  Call.replaceAllUsesWith(Replacement);
  Call.eraseFromParent();
  return true;
}

/// \p Call, through a pointer, as a choice among \p Targets, each called
/// through its lane copy (one lane layout for all: the union of what the
/// caller reads and what each returns), or, for a target with a user's
/// mark, through a wrapper that packs the lanes again, if it passes or
/// returns float lanes. Another pointer traps, as the dispatcher of a
/// derivative does (IndirectCalls.h).
static bool unpackIndirectCall(CallInst &Call,
                               PossibleTargetsFn PossibleTargets) {
  SmallVector<std::optional<Lanes>, 8> Params;
  bool Any = argumentLanes(Call, Params);
  ResultLanes Result = floatLanesReturned(Call);
  // Only a call that may move float lanes asks for its targets: one that
  // passes them, or returns eightbytes its targets may fill with floats.
  if (!Any && Result.empty() && !Call.getType()->isIntegerTy(PackedBits) &&
      !isa<StructType>(Call.getType()))
    return false;
  FunctionType *FT = Call.getFunctionType();
  SmallVector<Function *, 4> Targets = PossibleTargets(FT);
  for (Function *Target : Targets) {
    if (canCopyWithLanes(*Target, FT))
      mergeResultLanes(Result,
                       returnedFloatLanes(bodyToDifferentiate(*Target)));
    else if (!canWrapWithLanes(*Target, FT))
      return false;
  }
  if ((!Any && Result.empty()) || Targets.empty())
    return false;

  // The arguments, built once before the choice, serve every target.
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args = laneArguments(B, Call, Params);
  LLVMContext &Ctx = Call.getContext();
  Function &F = *Call.getFunction();
  BasicBlock *Before = Call.getParent();
  BasicBlock *After = Before->splitBasicBlock(&Call, "lanes.after");
  Before->getTerminator()->eraseFromParent();
  BasicBlock *None = BasicBlock::Create(Ctx, "lanes.none", &F, After);
  IRBuilder<> TrapB(None);
  TrapB.CreateIntrinsic(Intrinsic::trap, {}, {});
  TrapB.CreateUnreachable();

  Value *Callee = Call.getCalledOperand();
  BasicBlock *Test = Before;
  SmallVector<std::pair<CallInst *, BasicBlock *>, 4> Calls;
  for (auto [N, Target] : enumerate(Targets)) {
    BasicBlock *Case = BasicBlock::Create(Ctx, "lanes.call", &F, After);
    BasicBlock *Next = N + 1 == Targets.size()
                           ? None
                           : BasicBlock::Create(Ctx, "lanes.test", &F, After);
    IRBuilder<> TB(Test);
    TB.CreateCondBr(TB.CreateICmpEQ(Callee, Target), Case, Next);
    IRBuilder<> CB(Case);
    Function &Lanes = canCopyWithLanes(*Target, FT)
                          ? laneCopy(*Target, Params, Result)
                          : laneWrapper(*Target, Params, Result);
    CallInst *New = CB.CreateCall(&Lanes, Args);
    New->setDebugLoc(Call.getDebugLoc());
    New->setCallingConv(Call.getCallingConv());
    CB.CreateBr(After);
    Calls.push_back({New, Case});
    Test = Next;
  }
  B.SetInsertPoint(&Call);
  if (!Call.getType()->isVoidTy()) {
    PHINode *Phi = B.CreatePHI(Calls.front().first->getType(), Calls.size());
    for (auto [New, Case] : Calls)
      Phi->addIncoming(New, Case);
    Value *Replacement =
        Result.empty() ? Phi : resultFromLanes(B, Phi, Call.getType(), Result);
    Call.replaceAllUsesWith(Replacement);
  }
  Call.eraseFromParent();
  return true;
}

bool unpackFloatLanesAtCalls(Function &F, PossibleTargetsFn PossibleTargets) {
  SmallVector<CallInst *, 8> Direct, Indirect;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      if (Function *Callee = Call->getCalledFunction()) {
        if (canCopyWithLanes(*Callee, Call->getFunctionType()))
          Direct.push_back(Call);
      } else if (!Call->isInlineAsm() && PossibleTargets) {
        Indirect.push_back(Call);
      }
    }
  bool Changed = false;
  for (CallInst *Call : Direct)
    Changed |= unpackDirectCall(*Call);
  for (CallInst *Call : Indirect)
    Changed |= unpackIndirectCall(*Call, PossibleTargets);
  if (Changed)
    foldAssembledLanes(F);
  return Changed;
}

} // namespace enzyme
