//===- ActivityAnalysis.cpp - Which values carry derivatives --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/KnownFunctions.h"
#include "Analysis/MemoryTypes.h"
#include "Core/ContextShadows.h"
#include "Core/Diagnostics.h"
#include "Core/GlobalShadows.h"
#include "Core/UserRegistrations.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace enzyme {

bool isDifferentiableType(Type *Ty) {
  if (Ty->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), isDifferentiableType);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return isDifferentiableType(AT->getElementType());
  return false;
}

bool carriesPointers(Type *Ty) {
  if (Ty->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), carriesPointers);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return carriesPointers(AT->getElementType());
  return false;
}

bool isAtomicFloatAdd(const AtomicRMWInst &RMW) {
  return (RMW.getOperation() == AtomicRMWInst::FAdd ||
          RMW.getOperation() == AtomicRMWInst::FSub) &&
         RMW.getType()->isFloatingPointTy();
}

std::string describeAtomicWithDerivative(const Instruction &I,
                                         bool OnShadowedMemory,
                                         bool ResultCarries) {
  if (!OnShadowedMemory && !ResultCarries)
    return "";
  // Integer add, sub, and, or, ... change an integer's bits: no derivative
  // in them. An exchange could move a float's or a pointer's bits.
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
      RMW && !ResultCarries && RMW->getType()->isIntegerTy() &&
      RMW->getOperation() != AtomicRMWInst::Xchg)
    return "";
  // Floating-point additions (atomicAdd) have a derivative.
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I); RMW && isAtomicFloatAdd(*RMW))
    return "";
  return "cannot differentiate an atomic operation on memory with "
         "derivatives";
}

bool computedFromAddress(const Value *V, unsigned Depth) {
  if (isa<PtrToIntInst>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || !(isa<BinaryOperator>(I) || isa<CastInst>(I)))
    return false;
  return any_of(I->operands(), [&](const Use &U) {
    return computedFromAddress(U.get(), Depth + 1);
  });
}

static const Value *addressArithmeticBase(const Value *Int, unsigned Depth) {
  if (const auto *Cast = dyn_cast<PtrToIntInst>(Int))
    return Cast->getPointerOperand();
  const auto *Op = dyn_cast<BinaryOperator>(Int);
  if (!Op || Depth > 8)
    return nullptr;
  const Value *L = Op->getOperand(0), *R = Op->getOperand(1);
  switch (Op->getOpcode()) {
  case Instruction::Add:
    if (!computedFromAddress(R))
      return addressArithmeticBase(L, Depth + 1);
    if (!computedFromAddress(L))
      return addressArithmeticBase(R, Depth + 1);
    return nullptr;
  case Instruction::Sub:
    return computedFromAddress(R) ? nullptr
                                  : addressArithmeticBase(L, Depth + 1);
  case Instruction::Or: {
    // Flags set in the bits the alignment leaves free (a tagged pointer).
    int Bits = taggedBitsOperand(Op);
    return Bits < 0 ? nullptr
                    : addressArithmeticBase(Op->getOperand(Bits), Depth + 1);
  }
  case Instruction::And: {
    // Rounding down to a multiple of a power of two stays in the object
    // that the code over-allocated for it.
    const auto *Mask = dyn_cast<ConstantInt>(R);
    if (Mask && Mask->getValue().isNegatedPowerOf2())
      return addressArithmeticBase(L, Depth + 1);
    return nullptr;
  }
  default:
    return nullptr;
  }
}

const Value *addressArithmeticBase(const Value *Int) {
  return addressArithmeticBase(Int, 0);
}

/// \p Flags touches no bit above the three lowest: at most a tag.
static bool isLowFlags(const Value *Flags, const DataLayout &DL) {
  if (!Flags->getType()->isIntegerTy())
    return false;
  KnownBits Known = computeKnownBits(Flags, DL);
  return Known.countMaxActiveBits() <= 3;
}

int taggedBitsOperand(const Value *Int) {
  const auto *Op = dyn_cast<BinaryOperator>(Int);
  if (!Op)
    return -1;
  const DataLayout &DL = Op->getDataLayout();
  switch (Op->getOpcode()) {
  case Instruction::Or:
    for (unsigned Bits : {0u, 1u})
      if (isLowFlags(Op->getOperand(1 - Bits), DL))
        return Bits;
    return -1;
  case Instruction::And: {
    // Clearing flags: a mask with every bit above the three lowest set.
    const auto *Mask = dyn_cast<ConstantInt>(Op->getOperand(1));
    return Mask && (~Mask->getValue()).ult(8) ? 0 : -1;
  }
  default:
    return -1;
  }
}

LoadInst *taggedBitsLoad(const Value *Int) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    if (auto *Load = dyn_cast<LoadInst>(Int))
      return const_cast<LoadInst *>(Load);
    int Bits = taggedBitsOperand(Int);
    if (Bits < 0)
      return nullptr;
    Int = cast<BinaryOperator>(Int)->getOperand(Bits);
  }
  return nullptr;
}

LoadInst *integerLoadOfPointer(Instruction &I) {
  if (!isa<IntToPtrInst>(I))
    return nullptr;
  return taggedBitsLoad(I.getOperand(0));
}

CalleeReturnShadows::~CalleeReturnShadows() = default;

ActivityAnalysis::ActivityAnalysis(Function &F,
                                   ArrayRef<Activity> ArgActivities,
                                   bool ReturnShadow, bool ContextShadows,
                                   const UnshadowedFieldOffsets &Fields,
                                   bool ReturnDerivative,
                                   CalleeReturnShadows *Returns)
    : ReturnShadow(ReturnShadow), ContextShadows(ContextShadows),
      Returns(Returns), DL(F.getDataLayout()) {
  for (Argument &A : F.args()) {
    if (A.getArgNo() < Fields.size() && !Fields[A.getArgNo()].empty())
      ArgUnshadowedFields[&A] = Fields[A.getArgNo()];
    Activity Act = ArgActivities[A.getArgNo()];
    if (Act == Activity::Out && isDifferentiableType(A.getType())) {
      Active.insert(&A);
    } else if (hasShadow(Act)) {
      Shadowed.insert(&A);
      // A small struct passed in registers that holds floats beside its
      // pointers: the floats carry derivatives as the pointers shadows.
      if (!A.getType()->isPointerTy() && isDifferentiableType(A.getType()))
        Active.insert(&A);
    }
  }
  propagate(F);
  dropUnreachedDerivatives(F, ReturnDerivative);
}

bool ActivityAnalysis::isShadowed(const Value *V) const {
  return Shadowed.count(V) || hasConstantShadow(V) ||
         (ContextShadows && hasContextShadow(V));
}

bool ActivityAnalysis::mayTouchShadowedGlobals(const CallBase &Call) const {
  return enzyme::mayTouchShadowedGlobals(Call) ||
         (ContextShadows && mayTouchContextGlobals(Call));
}

/// \p V is a function, or an address within constant data that holds no
/// floating-point value (a C++ type_info, a vtable, a string): nothing
/// reads a derivative through it, so a null shadow stands for it.
static bool isConstantWithoutFloats(const Value *V) {
  const Value *Object = getUnderlyingObject(V);
  if (isa<Function>(Object))
    return true;
  const auto *GV = dyn_cast<GlobalVariable>(Object);
  return GV && GV->isConstant() && !isDifferentiableType(GV->getValueType());
}

const Value *ActivityAnalysis::unshadowedChoice(const Instruction &I) const {
  if (!isa<SelectInst>(I) && !isa<PHINode>(I))
    return nullptr;
  for (unsigned Op = isa<SelectInst>(I) ? 1 : 0; Op < I.getNumOperands(); ++Op)
    if (needsScratchShadow(I.getOperand(Op)))
      return I.getOperand(Op);
  return nullptr;
}

bool ActivityAnalysis::needsScratchShadow(const Value *V) const {
  const auto *C = dyn_cast<Constant>(V);
  // An aggregate whose floats carry derivatives keeps them: only values
  // made of pointers without shadows (and inactive fields) get scratch ones.
  return carriesPointers(V->getType()) && !isShadowed(V) && !isActive(V) &&
         !(C && C->isNullValue()) && !isa<UndefValue>(V) &&
         !isConstantWithoutFloats(V);
}

/// The values whose bits \p V is made of, through operations that move
/// or mask bits: loads, arguments, results of other operations. With
/// \p Assembled, also through casts between integer widths, shifts by
/// constants and aggregate moves: how a struct of a float and an integer
/// passed or returned by value is packed into one integer, and unpacked.
static void collectBitSources(const Value *V,
                              SmallPtrSetImpl<const Value *> &Seen,
                              SmallVectorImpl<const Value *> &Sources,
                              bool Assembled = false) {
  if (Seen.size() > 64 || !Seen.insert(V).second)
    return;
  const auto *I = dyn_cast<Instruction>(V);
  unsigned First = 0, Last = I ? I->getNumOperands() : 0;
  unsigned Opcode = I ? I->getOpcode() : 0;
  switch (Opcode) {
  case Instruction::Select:
    First = 1;
    break;
  case Instruction::ExtractElement:
    Last = 1;
    break;
  case Instruction::InsertElement:
    Last = 2;
    break;
  case Instruction::PHI:
  case Instruction::ShuffleVector:
  case Instruction::Freeze:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::BitCast:
    break;
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
    // Shifts by constants only.
    if (Assembled && (!I->isShift() || isa<Constant>(I->getOperand(1)))) {
      Last = I->isShift() || Opcode == Instruction::ExtractValue ? 1 : Last;
      break;
    }
    [[fallthrough]];
  default:
    Sources.push_back(V);
    return;
  }
  for (unsigned Op = First; Op < Last; ++Op)
    collectBitSources(I->getOperand(Op), Seen, Sources, Assembled);
}

/// \p Call returns an integer (alone, or in a struct: `{ i64, double }`)
/// from a function the engine differentiates, given values that carry
/// derivatives.
static bool returnsDifferentiatedResult(const ActivityAnalysis &AA,
                                        const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  Type *Ty = Call.getType();
  bool Integers = Ty->isIntOrIntVectorTy();
  if (auto *ST = dyn_cast<StructType>(Ty))
    Integers =
        any_of(ST->elements(), [](Type *E) { return E->isIntOrIntVectorTy(); });
  if (!Integers || Call.isInlineAsm() || isInactiveCall(Call) ||
      (Callee && (Callee->isIntrinsic() || Callee->isDeclaration())))
    return false;
  return any_of(Call.args(), [&](const Use &U) {
    return AA.isActive(U.get()) || AA.isShadowed(U.get());
  });
}

static const Value *
findReturnedFloatBits(const ReturnInst &Ret,
                      function_ref<bool(const Value *)> Counts);

/// \p Call, given values with derivatives, calls a function that returns
/// the bits of a float as an integer: what the call returns may carry a
/// derivative that an integer cannot (the callee's copy reports it where it
/// is differentiated; an optimised callee without memory effects is not).
static bool returnsFloatBits(const ActivityAnalysis &AA, const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!returnsDifferentiatedResult(AA, Call) || !Callee)
    return false;
  for (const BasicBlock &BB : *Callee)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
        Ret && findReturnedFloatBits(*Ret, [](const Value *) { return true; }))
      return true;
  return false;
}

/// \p Store writes over a floating-point field of the declared type of the
/// local it stores into: a struct of a float and an integer that the ABI
/// packs into one integer, kept in memory (at -O0 with
/// -fsanitize=undefined, whose checks take the fields' addresses), where
/// the integer evidence of the access alone would say "integers".
static bool storesOverDeclaredFloat(const StoreInst &Store) {
  const DataLayout &DL = Store.getDataLayout();
  int64_t Offset = 0;
  const auto *Local = dyn_cast<AllocaInst>(
      GetPointerBaseWithConstantOffset(Store.getPointerOperand(), Offset, DL));
  if (!Local)
    return false;
  auto Size = int64_t(DL.getTypeStoreSize(Store.getValueOperand()->getType()));
  // Whether Ty, starting At bytes past the store's first byte, has a
  // floating-point scalar among the stored bytes.
  auto Overlaps = [&](auto &Self, Type *Ty, int64_t At) -> bool {
    if (At >= Size || At + int64_t(DL.getTypeStoreSize(Ty)) <= 0)
      return false;
    if (Ty->isFloatingPointTy())
      return true;
    if (auto *ST = dyn_cast<StructType>(Ty)) {
      const StructLayout *Layout = DL.getStructLayout(ST);
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        if (Self(Self, ST->getElementType(I),
                 At + int64_t(Layout->getElementOffset(I))))
          return true;
      return false;
    }
    if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      auto Stride = int64_t(DL.getTypeAllocSize(AT->getElementType()));
      for (uint64_t I = 0; I < AT->getNumElements() && Stride; ++I)
        if (Self(Self, AT->getElementType(), At + int64_t(I) * Stride))
          return true;
    }
    return false;
  };
  return Overlaps(Overlaps, Local->getAllocatedType(), -Offset);
}

const Value *ActivityAnalysis::lostFloatBits(const Instruction &I) const {
  // Optimised code stores a float field of such a result as the integer
  // it came in.
  if (const auto *Store = dyn_cast<StoreInst>(&I);
      Store && Store->getValueOperand()->getType()->isIntOrIntVectorTy() &&
      isShadowed(Store->getPointerOperand())) {
    SmallPtrSet<const Value *, 8> Seen;
    SmallVector<const Value *, 4> Sources;
    collectBitSources(Store->getValueOperand(), Seen, Sources,
                      /*Assembled=*/true);
    for (const Value *Source : Sources)
      if (const auto *Call = dyn_cast<CallBase>(Source);
          Call && returnsDifferentiatedResult(*this, *Call)) {
        IntegerAccessContents Contents =
            classifyIntegerAccess({const_cast<StoreInst *>(Store)});
        if (Contents.What == IntegerAccessContents::Floats ||
            Contents.What == IntegerAccessContents::Unknown ||
            storesOverDeclaredFloat(*Store))
          return Source;
      }
    // The bits of a float in memory changed as an integer and written back
    // to memory that holds floats (`bits |= SIGN` on a variable whose
    // address escapes, so that it stays in memory): integer operations
    // have no derivative. (A load stored as it is is a copy, typed
    // elsewhere.)
    if (!isa<LoadInst>(Store->getValueOperand()))
      for (const Value *Source : Sources) {
        const auto *Load = dyn_cast<LoadInst>(Source);
        const Value *Object =
            Load ? getUnderlyingObject(Load->getPointerOperand()) : nullptr;
        if (!Load || !isShadowed(Load->getPointerOperand()) ||
            Object != getUnderlyingObject(Store->getPointerOperand()))
          continue;
        IntegerAccessContents::Kind Read =
            classifyIntegerAccess({const_cast<LoadInst *>(Load)}).What;
        IntegerAccessContents::Kind Written =
            classifyIntegerAccess({const_cast<StoreInst *>(Store)}).What;
        auto MayBeFloats = [](IntegerAccessContents::Kind K) {
          return K == IntegerAccessContents::Floats ||
                 K == IntegerAccessContents::Unknown;
        };
        // A local declared as an integer says "integers"; a float stored
        // into it says otherwise.
        bool FloatStoredHere = any_of(Object->users(), [](const User *U) {
          const auto *S = dyn_cast<StoreInst>(U);
          return S && S->getValueOperand()->getType()->isFPOrFPVectorTy();
        });
        if ((MayBeFloats(Read) && MayBeFloats(Written)) ||
            (FloatStoredHere && Read != IntegerAccessContents::Pointers &&
             Written != IntegerAccessContents::Pointers))
          return Source;
      }
    return nullptr;
  }
  const auto *Cast = dyn_cast<BitCastInst>(&I);
  if (!Cast || isActive(Cast) || !Cast->getDestTy()->isFPOrFPVectorTy() ||
      !Cast->getSrcTy()->isIntOrIntVectorTy())
    return nullptr;
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 4> Sources;
  collectBitSources(Cast->getOperand(0), Seen, Sources);
  for (const Value *Source : Sources) {
    const auto *Load = dyn_cast<LoadInst>(Source);
    if (isActive(Source) || (Load && isShadowed(Load->getPointerOperand())))
      return Source;
    // Assembly that reads memory with derivatives as integers (a PTX load
    // the engine does not read as one).
    if (const auto *Call = dyn_cast<CallBase>(Source);
        Call && Call->isInlineAsm() &&
        any_of(Call->args(), [&](const Use &Arg) {
          // An address goes in as a pointer, or as its integer ("l").
          const Value *Address = Arg.get();
          if (const auto *Cast = dyn_cast<PtrToIntInst>(Address))
            Address = Cast->getPointerOperand();
          return Address->getType()->isPointerTy() && isShadowed(Address);
        }))
      return Source;
  }
  // Floats unpacked from an integer that a differentiated function
  // returned (a struct of a float and an integer returned by value): the
  // derivative of the float stayed in the callee. And a float's bits taken
  // apart and joined again (__hiloint2double of its halves, shifted).
  Seen.clear();
  Sources.clear();
  collectBitSources(Cast->getOperand(0), Seen, Sources, /*Assembled=*/true);
  for (const Value *Source : Sources) {
    if (const auto *Call = dyn_cast<CallBase>(Source);
        Call && returnsDifferentiatedResult(*this, *Call))
      return Source;
    if (Source->getType()->isFPOrFPVectorTy() && isActive(Source))
      return Source;
  }
  return nullptr;
}

bool ActivityAnalysis::carriesFloatBits(const Value &Bits) const {
  // A float moved as its bits (through a bitcast), or integers loaded from
  // memory with derivatives.
  if (Bits.getType()->isFPOrFPVectorTy())
    return isActive(&Bits);
  if (const auto *Call = dyn_cast<CallBase>(&Bits))
    return returnsFloatBits(*this, *Call);
  const auto *Load = dyn_cast<LoadInst>(&Bits);
  if (!Load || !isShadowed(Load->getPointerOperand()))
    return false;
  // Integers and pointers read as integers carry no float bits.
  IntegerAccessContents Contents =
      classifyIntegerAccess({const_cast<LoadInst *>(Load)});
  return Contents.What == IntegerAccessContents::Floats ||
         Contents.What == IntegerAccessContents::Unknown;
}

std::optional<unsigned>
ActivityAnalysis::floatBitsPassedAsInteger(const CallBase &Call,
                                           const Value *&Source) const {
  // Through a function pointer the callee is differentiated too (direct
  // calls of a differentiated function get their floats as floats:
  // Modes/PackedFloatLanes.h). Assembly that takes a float's bits as an
  // integer (a PTX statement the engine does not read) would drop them.
  const Function *Callee = Call.getCalledFunction();
  if (isInactiveCall(Call) ||
      (Callee && (Callee->isIntrinsic() || Callee->isDeclaration())))
    return std::nullopt;
  for (const Use &Arg : Call.args()) {
    if (!Arg->getType()->isIntOrIntVectorTy())
      continue;
    SmallPtrSet<const Value *, 8> Seen;
    SmallVector<const Value *, 4> Sources;
    collectBitSources(Arg.get(), Seen, Sources, /*Assembled=*/true);
    for (const Value *S : Sources)
      if (carriesFloatBits(*S)) {
        Source = S;
        return Call.getArgOperandNo(&Arg);
      }
  }
  return std::nullopt;
}

/// The float whose bits \p Ret returns as an integer of the float's width
/// (alone, in a vector or in a struct): through aggregate and vector moves
/// and joins to a `bitcast` of a float for which \p Counts holds; nullptr if
/// none.
static const Value *
findReturnedFloatBits(const ReturnInst &Ret,
                      function_ref<bool(const Value *)> Counts) {
  const Value *V = Ret.getReturnValue();
  if (!V || V->getType()->isFPOrFPVectorTy() || V->getType()->isPointerTy())
    return nullptr;
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 8> Work{V};
  while (!Work.empty() && Seen.size() < 64) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (const auto *Cast = dyn_cast<BitCastInst>(I)) {
      const Value *From = Cast->getOperand(0);
      if (!From->getType()->isFPOrFPVectorTy())
        Work.push_back(From);
      else if (Counts(From))
        return From;
      continue;
    }
    switch (I->getOpcode()) {
    case Instruction::InsertValue:
    case Instruction::InsertElement:
      // A float field keeps its type; only integer fields hide floats.
      Work.push_back(I->getOperand(0));
      if (!I->getOperand(1)->getType()->isFPOrFPVectorTy())
        Work.push_back(I->getOperand(1));
      break;
    case Instruction::Select:
      Work.append({I->getOperand(1), I->getOperand(2)});
      break;
    case Instruction::PHI:
    case Instruction::Freeze:
      for (const Value *Op : I->operands())
        Work.push_back(Op);
      break;
    default:
      // Widening, shifts and masks assemble a float with other data into a
      // wider integer (a struct of a float and an int, as x86-64 returns
      // it): callers that read the float back get it as a float
      // (Modes/PackedFloatLanes.h), and others do not need it.
      break;
    }
  }
  return nullptr;
}

const Value *
ActivityAnalysis::floatBitsReturnedAsInteger(const ReturnInst &Ret) const {
  return findReturnedFloatBits(
      Ret, [&](const Value *Float) { return isActive(Float); });
}

std::string describeFloatBitsReturnedAsInteger(const Function &F) {
  return "cannot differentiate '" + displayName(F.getName()) +
         "': it returns the bits of a floating-point value with a derivative "
         "as an integer (alone, or in a struct returned by value), and its "
         "callers would get them without their derivative; return the float "
         "itself, or give the function a custom derivative";
}

const Value *ActivityAnalysis::lostPointerBits(const Instruction &I) const {
  // A pointer read back as an integer (integerLoadOfPointer) or computed
  // from a shadowed pointer has its shadow; one taken out of the bits of a
  // vector loaded from memory with derivatives (a struct that SROA turned
  // into <4 x double>) would silently have none.
  if (!isa<IntToPtrInst>(I) || isShadowed(&I) ||
      taggedBitsLoad(I.getOperand(0)))
    return nullptr;
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 4> Sources;
  collectBitSources(I.getOperand(0), Seen, Sources);
  for (const Value *Source : Sources)
    if (const auto *Load = dyn_cast<LoadInst>(Source);
        Load && Source != I.getOperand(0) &&
        isShadowed(Load->getPointerOperand()))
      return Load;
  return nullptr;
}

std::string describeLostPointerBits(const Value &Source) {
  std::string Name =
      Source.hasName() ? (" ('" + Source.getName() + "')").str() : "";
  return "cannot differentiate a pointer taken out of the bits of a value" +
         Name +
         " loaded from memory with derivatives (a struct the optimiser "
         "merged into a vector of floats): its shadow would be lost; build "
         "the function with -O1, or give it a custom derivative";
}

const Value *
ActivityAnalysis::untypedBitsStored(const Instruction &I,
                                    const Function *Original) const {
  const auto *Store = dyn_cast<StoreInst>(&I);
  if (!Store || !isShadowed(Store->getPointerOperand()))
    return nullptr;
  const Value *Val = Store->getValueOperand();
  if (!Val->getType()->isIntOrIntVectorTy() ||
      !(isa<PHINode>(Val) || isa<SelectInst>(Val) ||
        isa<ShuffleVectorInst>(Val)))
    return nullptr;
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<const Value *, 4> Sources;
  collectBitSources(Val, Seen, Sources);
  SmallVector<Instruction *, 4> Accesses = {const_cast<StoreInst *>(Store)};
  const Value *FromDerivatives = nullptr;
  for (const Value *Source : Sources) {
    const auto *Load = dyn_cast<LoadInst>(Source);
    if (!Load && !isa<Constant>(Source))
      return nullptr; // Computed, not moved: integers.
    if (Load && isShadowed(Load->getPointerOperand())) {
      FromDerivatives = Load;
      Accesses.push_back(const_cast<LoadInst *>(Load));
    }
  }
  if (!FromDerivatives)
    return nullptr;
  IntegerAccessContents Contents =
      classifyIntegerAccess(Accesses, Original, /*OnlyMoved=*/true);
  return Contents.What == IntegerAccessContents::Unknown ? FromDerivatives
                                                         : nullptr;
}

std::string describeUntypedBitsStored(const Value &Source) {
  std::string Name =
      Source.hasName() ? (" ('" + Source.getName() + "')").str() : "";
  return "cannot tell whether the integers stored here, moved from memory "
         "with derivatives" +
         Name +
         " through integer shuffles, phis or selects, are the bits of "
         "floating-point values: nothing (a type-based alias tag, another "
         "access of the same memory) says what that memory holds. Build with "
         "-fstrict-aliasing, move the values as floating-point types (for "
         "SSE, _mm_shuffle_pd rather than _mm_shuffle_epi32), or give the "
         "function a custom derivative";
}

/// \p F is named by a custom-derivative registration
/// (`__enzyme_register_gradient_NAME`, `__enzyme_register_derivative_NAME`).
static bool hasCustomDerivative(const Function &F) {
  return isNamedByRegistration(F, "__enzyme_register_");
}

std::string describeLostFloatBits(const Value &Source) {
  if (const auto *Call = dyn_cast<CallBase>(&Source);
      Call && Call->isInlineAsm())
    return "cannot differentiate floats that inline assembly reads as "
           "integers from memory with derivatives: their derivatives would "
           "be lost; read them in C or C++, or give the function a custom "
           "derivative";
  // A call that returns an integer: the ABI's packing of a struct. (A
  // float a call returns, such as llvm.fabs's, is split by the code here.)
  if (const auto *Call = dyn_cast<CallBase>(&Source);
      Call && Call->getType()->isIntOrIntVectorTy()) {
    const Function *F = Call->getCalledFunction();
    std::string Callee = F ? "'" + displayName(F->getName()) + "'"
                           : std::string("the function it calls through a "
                                         "pointer");
    std::string What =
        "cannot differentiate floats unpacked from the integer that " + Callee +
        " returns (a struct that mixes floats and integers, returned by "
        "value, which the ABI packs into one integer register): ";
    if (F && hasCustomDerivative(*F))
      return What + "its custom derivative cannot give their derivative; "
                    "return the struct through a pointer or reference "
                    "parameter";
    return What +
           "their derivative would stay in the callee; return the struct "
           "through a pointer or reference parameter, or " +
           (F ? "give " + Callee + " a custom derivative"
              : std::string("call the function directly"));
  }
  std::string Name =
      Source.hasName() ? (" ('" + Source.getName() + "')").str() : "";
  return "cannot differentiate floats whose bits" + Name +
         " carry a derivative but are moved as integers with operations "
         "that split or mix them; move them as floating-point values, or "
         "give the function a custom derivative";
}

std::string describeFloatBitsPassedAsInteger(const CallBase &Call,
                                             unsigned ArgNo,
                                             const Value &Source) {
  if (Call.isInlineAsm())
    return "cannot differentiate inline assembly that takes the bits of a "
           "float with a derivative as an integer (operand " +
           std::to_string(ArgNo + 1) +
           "): its derivative would be lost; compute on the float in C or "
           "C++, or give the function a custom derivative";
  const Function *F = Call.getCalledFunction();
  std::string Callee = F ? "'" + displayName(F->getName()) + "'"
                         : std::string("the function it calls through a "
                                       "pointer");
  std::string What = "cannot differentiate the call of " + Callee +
                     ": its argument " + std::to_string(ArgNo + 1) +
                     " is an integer that carries the bits of a float with a "
                     "derivative ";
  if (isa<LoadInst>(Source))
    return What +
           "(read from memory that holds floats, through a pointer "
           "to integers), which the callee would receive without its "
           "derivative; pass the float itself, or give " +
           (F ? Callee : std::string("the callee")) + " a custom derivative";
  if (const auto *Returning = dyn_cast<CallBase>(&Source)) {
    const Function *From = Returning->getCalledFunction();
    return What + "(the bits of a float that '" +
           displayName(From ? From->getName() : "?") +
           "' returns as an integer), which the callee would receive without "
           "its derivative; return and pass the float itself, or give " +
           (F ? Callee : std::string("the callee")) + " a custom derivative";
  }
  What += "(a struct that mixes floats and integers, passed by value, which "
          "the ABI packs into one integer register), and ";
  if (F && hasCustomDerivative(*F))
    return What + "its custom derivative would receive it without its "
                  "derivative; pass the struct by pointer or reference";
  return What +
         "the callee would receive it without its derivative; pass the "
         "struct by pointer or reference, or " +
         (F ? "give " + Callee + " a custom derivative"
            : std::string("call the function directly"));
}

std::string returnedWithoutShadow(const Function &F) {
  return "the caller stores or reads derivatives through the pointer '" +
         F.getName().str() +
         "' returns, but it points to memory without derivatives (an "
         "enzyme_const argument, a global, memory from an inactive "
         "function); pass that memory with enzyme_dup, or return memory "
         "this function allocates";
}

/// \p Ptr points into memory at an address computed from an integer (a
/// local that AddressSanitizer moved into its frame), which the engine
/// cannot give a shadow.
static bool isIntegerComputedAddress(const Value &Ptr) {
  const Value *Object = getUnderlyingObject(&Ptr);
  auto IsIntegerAddress = [](const Value *V) {
    // A pointer read back as an integer from memory is one the engine
    // follows (integerLoadOfPointer), as is arithmetic on a pointer's
    // address (addressArithmeticBase); other integers are not.
    const auto *Cast = dyn_cast<IntToPtrInst>(V);
    return Cast && !isa<LoadInst>(Cast->getOperand(0)) &&
           !addressArithmeticBase(Cast->getOperand(0));
  };
  if (const auto *Phi = dyn_cast<PHINode>(Object))
    return any_of(Phi->incoming_values(), [&](const Value *In) {
      return IsIntegerAddress(getUnderlyingObject(In));
    });
  if (const auto *Select = dyn_cast<SelectInst>(Object))
    return IsIntegerAddress(getUnderlyingObject(Select->getTrueValue())) ||
           IsIntegerAddress(getUnderlyingObject(Select->getFalseValue()));
  return IsIntegerAddress(Object);
}

static constexpr const char *InstrumentedHint =
    ". If the code is instrumented (-fsanitize=address moves locals to such "
    "addresses) and the request waits for the link (as requests that reach "
    "kernel launches do), build without the sanitizer or call the function "
    "directly so that the request is completed at compile time";

std::string describeStoreThroughIntegerAddress(const Value &Ptr) {
  if (!isIntegerComputedAddress(Ptr))
    return "";
  return std::string("a value that carries a derivative is stored through "
                     "an address computed from an integer, which the engine "
                     "cannot give a shadow; its derivative would be lost") +
         InstrumentedHint;
}

std::string describeAddressFromInteger(const Value &Ptr) {
  // The address itself, or a pointer loaded from such memory (whose shadow
  // would have been stored beside it).
  const Value *Object = getUnderlyingObject(&Ptr);
  bool Loaded = false;
  if (const auto *Load = dyn_cast<LoadInst>(Object))
    Loaded = isIntegerComputedAddress(*Load->getPointerOperand());
  if (!Loaded && !isIntegerComputedAddress(Ptr))
    return "";
  return std::string("a call that moves derivatives is passed a pointer ") +
         (Loaded ? "read from memory at an address computed from an integer"
                 : "to memory at an address computed from an integer") +
         ", which the engine cannot give a shadow; the derivatives it moves "
         "there would be lost" +
         InstrumentedHint;
}

std::string describeDerivativeStoredWithoutShadow(const Value &Ptr) {
  if (std::string Why = describeStoreThroughIntegerAddress(Ptr); !Why.empty())
    return Why;
  const Value *Object = getUnderlyingObject(&Ptr);
  if (const auto *GV = dyn_cast<GlobalVariable>(Object)) {
    if (isInactiveGlobal(*GV))
      return "";
    // An `extern __shared__` array: sized at launch, in shared memory.
    if (GV->getAddressSpace() == 3 && !GV->hasInitializer())
      return "a value that carries a derivative is stored to the `extern "
             "__shared__` array '" +
             GV->getName().str() +
             "', whose shadow needs dynamic shared memory that only the "
             "derivatives of launches from differentiated host code provide "
             "(docs/cuda.md); differentiate the host code that launches the "
             "kernel, or use a `__shared__` array of fixed size";
    return "a value that carries a derivative is stored to the global '" +
           GV->getName().str() +
           "', which has no shadow; pass the data through an argument with "
           "enzyme_dup, give the global a shadow (enzyme_shadow, or "
           "enzyme_context on the request), or mark the global inactive";
  }
  std::string What = "memory without derivatives";
  if (const auto *Arg = dyn_cast<Argument>(Object)) {
    What = "the memory that argument " + std::to_string(Arg->getArgNo() + 1);
    if (Arg->hasName())
      What += " ('" + Arg->getName().str() + "')";
    // The analysed function is the prepared copy; users know the original.
    StringRef Fn = Arg->getParent()->getName();
    Fn.consume_back(".enzyme.prep");
    What += " of '" + displayName(Fn) +
            "' points to, which has no shadow (an enzyme_const argument, or "
            "memory its caller passes without derivatives)";
  } else if (isa<LoadInst>(Object)) {
    What = "memory through a pointer read from memory without derivatives "
           "(such as a field of a struct that holds a pointer to "
           "enzyme_const memory)";
  } else if (const auto *Call = dyn_cast<CallBase>(Object)) {
    if (const Function *Callee = Call->getCalledFunction())
      What = "the memory '" + Callee->getName().str() +
             "' returns, which has no shadow";
  }
  return "a value that carries a derivative is stored into " + What +
         "; its derivative would be lost when the program reads it back. "
         "Pass that memory with enzyme_dup and a zeroed shadow";
}

std::string describeCopyWithoutShadow(MemTransferInst &Copy, Function &F,
                                      const Function *Original) {
  std::string Why = describeDerivativeStoredWithoutShadow(*Copy.getDest());
  if (Why.empty())
    return "";
  std::optional<uint64_t> Length;
  if (auto *C = dyn_cast<ConstantInt>(Copy.getLength()))
    Length = C->getZExtValue();
  CopyLayout Layout = analyzeCopyLayout(Copy.getDest(), Copy.getSource(), F,
                                        Original, Length, &Copy);
  return copyMayMoveFloats(Copy, Layout, Length) ? Why : "";
}

std::string describeUnshadowedPointerStored() {
  return "cannot differentiate storing a pointer to memory without "
         "derivatives (an enzyme_const argument, a global, memory an "
         "inactive function returns) into memory that also holds pointers "
         "with derivatives: code that loads it would take its shadow, and "
         "device code has no run-time to give it a zeroed stand-in (host code "
         "does). Pass that memory with enzyme_dup and a zeroed shadow, or "
         "keep such pointers in a variable of their own";
}

std::string describeUnshadowedChoice(const Value &Choice) {
  std::string Name = Choice.hasName() ? ("'" + Choice.getName() + "'").str()
                                      : std::string("memory without "
                                                    "derivatives");
  return "cannot differentiate a pointer that chooses between memory with "
         "derivatives and " +
         Name +
         " (an enzyme_const argument or a global); the optimiser merged the "
         "two accesses into one. Pass that memory as enzyme_dup with a "
         "zeroed shadow, or copy the chosen value instead of choosing the "
         "pointer";
}

bool ActivityAnalysis::markActive(const Value *V) {
  return isDifferentiableType(V->getType()) && Active.insert(V).second;
}

bool ActivityAnalysis::markShadowed(const Value *V) {
  return carriesPointers(V->getType()) && Shadowed.insert(V).second;
}

static bool returnsFreshMemory(const Function &F, unsigned Depth);

/// \p V is a block that was just allocated (or null): an allocation call's
/// result, a call of a function that returns one, or such a value kept in a
/// local (unoptimised code's `result` slot), through casts, phis and
/// selects.
static bool isFreshMemory(const Value *V, unsigned Depth) {
  if (Depth > 8)
    return false;
  V = V->stripPointerCasts();
  if (isa<ConstantPointerNull>(V))
    return true;
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    if (isFreshAllocationCall(*Call))
      return true;
    const Function *Callee = Call->getCalledFunction();
    return Callee && returnsFreshMemory(*Callee, Depth + 1);
  }
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return all_of(Phi->incoming_values(), [&](const Value *In) {
      return In == Phi || isFreshMemory(In, Depth + 1);
    });
  if (const auto *Select = dyn_cast<SelectInst>(V))
    return isFreshMemory(Select->getTrueValue(), Depth + 1) &&
           isFreshMemory(Select->getFalseValue(), Depth + 1);
  // A local that only ever holds fresh blocks.
  const auto *Load = dyn_cast<LoadInst>(V);
  const auto *Slot =
      Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Slot)
    return false;
  bool Stored = false;
  for (const User *U : Slot->users()) {
    // Lifetime markers: -O0 code has them under AddressSanitizer.
    if (isa<LoadInst>(U) || cast<Instruction>(U)->isLifetimeStartOrEnd())
      continue;
    const auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getPointerOperand() != Slot ||
        !isFreshMemory(Store->getValueOperand(), Depth + 1))
      return false;
    Stored = true;
  }
  return Stored;
}

/// Every return of \p F returns a block it just allocated (or null):
/// an allocation wrapper such as Eigen's aligned_malloc.
static bool returnsFreshMemory(const Function &F, unsigned Depth) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy() || Depth > 3)
    return false;
  bool Returns = false;
  for (const BasicBlock &BB : F)
    if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      if (!isFreshMemory(Ret->getReturnValue(), Depth))
        return false;
      Returns = true;
    }
  return Returns;
}

/// Memory that a new allocation provides can hold derivatives unless it is
/// only ever used as integers; it gets a shadow.
static bool isShadowSource(const Instruction &I) {
  if (isa<AllocaInst>(I))
    return true;
  if (auto *Call = dyn_cast<CallBase>(&I))
    return isAllocationCall(*Call);
  return false;
}

/// \p V (a pointer) only leads to functions that are called: a vtable
/// pointer, the slot of a method in it, the method. Such pointers need no
/// shadow (calls through them dispatch on the primal pointer), and a shadow
/// object's vtable pointer may be anything.
static bool onlyLocatesCallees(const Value *V, unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  for (const Use &U : V->uses()) {
    const User *Usr = U.getUser();
    if (const auto *Call = dyn_cast<CallBase>(Usr)) {
      if (Call->isCallee(&U))
        continue;
      return false;
    }
    bool Follows = isa<GetElementPtrInst>(Usr) ||
                   (isa<LoadInst>(Usr) && Usr->getType()->isPointerTy());
    if (!Follows || !onlyLocatesCallees(Usr, Depth + 1))
      return false;
  }
  return true;
}

static bool onlyReadsThrough(const Value &Ptr, unsigned Depth);

/// \p Spill is a local that a callee stores a pointer to its caller's
/// memory into (a parameter spilled at -O0): true when what is read back
/// from it is only read through.
static bool spillOnlyRead(const AllocaInst &Spill, unsigned Depth) {
  for (const Use &U : Spill.uses()) {
    const User *Usr = U.getUser();
    if (isa<StoreInst>(Usr) && U.getOperandNo() == 1)
      continue;
    if (isa<LoadInst>(Usr) && onlyReadsThrough(*Usr, Depth + 1))
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(Usr);
        II && II->isLifetimeStartOrEnd())
      continue;
    return false;
  }
  return true;
}

/// \p U passes memory to \p Call, which can neither write it nor keep its
/// address: a lifetime marker, the source of a copy, a parameter declared
/// read-only and not captured, or one that the callee's body only reads.
static bool callOnlyReads(const CallBase &Call, const Use &U, unsigned Depth) {
  if (!Call.isArgOperand(&U))
    return false;
  unsigned ArgNo = Call.getArgOperandNo(&U);
  if (callSiteOnlyReads(Call, ArgNo))
    return true;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isInterposable() ||
      ArgNo >= Callee->arg_size() || Depth > 8)
    return false;
  return onlyReadsThrough(*Callee->getArg(ArgNo), Depth + 1);
}

/// Nothing writes through \p Ptr or lets it escape: it is loaded from,
/// compared, checked by a sanitizer, offset, spilled to a local that is only
/// read back, or passed to calls that do the same.
static bool onlyReadsThrough(const Value &Ptr, unsigned Depth) {
  if (Depth > 16)
    return false;
  for (const Use &U : Ptr.uses()) {
    const User *Usr = U.getUser();
    if (isa<LoadInst>(Usr) || isa<ICmpInst>(Usr))
      continue;
    if (isa<PtrToIntInst>(Usr) && addressOnlyInspected(*Usr, Depth + 1))
      continue;
    if (isa<GetElementPtrInst>(Usr) || isa<BitCastInst>(Usr) ||
        isa<AddrSpaceCastInst>(Usr)) {
      if (!onlyReadsThrough(*Usr, Depth + 1))
        return false;
      continue;
    }
    if (const auto *Store = dyn_cast<StoreInst>(Usr)) {
      const auto *Spill = dyn_cast<AllocaInst>(Store->getPointerOperand());
      if (U.getOperandNo() == 0 && Spill && spillOnlyRead(*Spill, Depth))
        continue;
      return false;
    }
    if (const auto *Call = dyn_cast<CallBase>(Usr);
        Call && callOnlyReads(*Call, U, Depth))
      continue;
    return false;
  }
  return true;
}

namespace {
/// A store into a local, at a constant offset from its start or at one the
/// walk could not compute.
struct LocalWrite {
  std::optional<uint64_t> Offset;
  uint64_t Size;
  /// The value stored; null when a call stored what it read at \p LoadedAt
  /// in the object \p LoadedFrom points to (a copy constructor).
  const Value *Stored;
  Type *StoredType;
  const Value *LoadedFrom = nullptr;
  uint64_t LoadedAt = 0;
};
} // namespace

/// Every store into the local \p Slot: its own, and with \p CallWrites
/// those of the calls that build it (a constructor at -O0); false when
/// something else may write it (a call that may store something else, a
/// memory intrinsic) or its address escapes.
static bool collectLocalWrites(const AllocaInst &Slot, const DataLayout &DL,
                               ParameterWrites *CallWrites,
                               SmallVectorImpl<LocalWrite> &Writes) {
  SmallVector<std::pair<const Value *, std::optional<uint64_t>>, 8> Work = {
      {&Slot, 0}};
  while (!Work.empty()) {
    auto [Address, Offset] = Work.pop_back_val();
    for (const Use &U : Address->uses()) {
      const User *Usr = U.getUser();
      AddressUse Kind = classifyAddressUse(*Usr, Offset, DL);
      if (Kind.What == AddressUse::Read)
        continue;
      if (Kind.What == AddressUse::Derived) {
        Work.emplace_back(Usr, Kind.DerivedOffset);
        continue;
      }
      if (const auto *Store = dyn_cast<StoreInst>(Usr)) {
        if (U.getOperandNo() != 1)
          return false;
        const Value *Val = Store->getValueOperand();
        Writes.push_back(
            {Offset, DL.getTypeStoreSize(Val->getType()), Val, Val->getType()});
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(Usr);
      if (Call && callOnlyReads(*Call, U, 0))
        continue;
      SmallVector<ParameterWrites::CallerWrite, 4> ByCall;
      std::optional<uint64_t> ReturnedAt;
      if (!Call || !CallWrites || !Offset || !Call->isArgOperand(&U) ||
          !CallWrites->ofCall(*Call, Call->getArgOperandNo(&U), ByCall,
                              ReturnedAt))
        return false;
      for (const ParameterWrites::CallerWrite &W : ByCall)
        Writes.push_back({*Offset + W.Offset, W.Size, W.Stored, W.StoredType,
                          W.LoadedFrom, W.LoadedAt});
      if (ReturnedAt)
        Work.emplace_back(Call, *Offset + *ReturnedAt);
    }
  }
  return true;
}

bool ActivityAnalysis::localOnlyHolds(
    const Value *Ptr, function_ref<bool(const Value &)> Storable) const {
  const auto *Slot = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  SmallVector<LocalWrite, 8> Writes;
  // Only the local's own stores: a local that calls build goes to callees
  // with its shadow, whose fields then say what has none.
  if (!Slot || !collectLocalWrites(*Slot, DL, nullptr, Writes))
    return false;
  return all_of(Writes, [&](const LocalWrite &W) {
    return !isShadowed(W.Stored) && !isActive(W.Stored) && Storable(*W.Stored);
  });
}

bool ActivityAnalysis::readsUnshadowedField(const Value *Ptr) const {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base =
      Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                             /*AllowNonInbounds=*/true);
  return !Offset.isNegative() &&
         fieldHoldsUnshadowedPointer(Base, Offset.getZExtValue());
}

bool ActivityAnalysis::fieldHoldsUnshadowedPointer(const Value *Base,
                                                   uint64_t Field,
                                                   unsigned Depth) const {
  if (const auto *Arg = dyn_cast<Argument>(Base)) {
    auto It = ArgUnshadowedFields.find(Arg);
    return It != ArgUnshadowedFields.end() && is_contained(It->second, Field);
  }
  const auto *Slot = dyn_cast<AllocaInst>(Base);
  SmallVector<LocalWrite, 8> Writes;
  if (!Slot || !collectLocalWrites(*Slot, DL, &CallWrites, Writes))
    return false;
  uint64_t PtrBytes = DL.getPointerSize();
  bool Filled = false;
  for (const LocalWrite &W : Writes) {
    if (!W.Offset)
      return false;
    if (*W.Offset + W.Size <= Field || Field + PtrBytes <= *W.Offset)
      continue;
    if (*W.Offset != Field || !W.StoredType->isPointerTy())
      return false;
    if (!W.Stored) {
      // A copy of another object's field: unshadowed when that one is.
      APInt At(DL.getIndexTypeSizeInBits(W.LoadedFrom->getType()), 0);
      const Value *Source = W.LoadedFrom->stripAndAccumulateConstantOffsets(
          DL, At, /*AllowNonInbounds=*/true);
      if (Depth >= 4 || At.isNegative() || Source == Base ||
          !fieldHoldsUnshadowedPointer(Source, At.getZExtValue() + W.LoadedAt,
                                       Depth + 1))
        return false;
      Filled = true;
      continue;
    }
    if (isShadowed(W.Stored) || isActive(W.Stored))
      return false;
    // Null's shadow (null) is right: a field only ever null (an end
    // iterator built at -O0) needs no telling.
    Filled |= !isa<ConstantPointerNull>(W.Stored);
  }
  return Filled;
}

SmallVector<uint64_t, 2>
ActivityAnalysis::unshadowedFieldsOf(const Value *Arg) const {
  SmallVector<uint64_t, 2> Fields;
  if (!Arg->getType()->isPointerTy())
    return Fields;
  APInt Offset(DL.getIndexTypeSizeInBits(Arg->getType()), 0);
  const Value *Base =
      Arg->stripAndAccumulateConstantOffsets(DL, Offset,
                                             /*AllowNonInbounds=*/true);
  if (Offset.isNegative())
    return Fields;
  uint64_t Start = Offset.getZExtValue();
  SmallVector<uint64_t, 4> Candidates;
  if (const auto *A = dyn_cast<Argument>(Base)) {
    auto It = ArgUnshadowedFields.find(A);
    if (It != ArgUnshadowedFields.end())
      Candidates.append(It->second.begin(), It->second.end());
  } else if (const auto *Slot = dyn_cast<AllocaInst>(Base)) {
    SmallVector<LocalWrite, 8> Writes;
    if (collectLocalWrites(*Slot, DL, &CallWrites, Writes))
      for (const LocalWrite &W : Writes)
        if (W.Offset && W.StoredType->isPointerTy() &&
            (!W.Stored || !isShadowed(W.Stored)) &&
            !is_contained(Candidates, *W.Offset))
          Candidates.push_back(*W.Offset);
  }
  for (uint64_t Field : Candidates) {
    if (Field < Start)
      continue;
    if (fieldHoldsUnshadowedPointer(Base, Field))
      Fields.push_back(Field - Start);
  }
  llvm::sort(Fields);
  return Fields;
}

SmallVector<Activity, 4> reverseArgumentActivities(const CallBase &Call,
                                                   const ActivityAnalysis &AA) {
  SmallVector<Activity, 4> Args;
  for (const Value *Arg : Call.args())
    Args.push_back(AA.passesShadow(Arg) ? Activity::Dup
                   : AA.isActive(Arg)   ? Activity::Out
                                        : Activity::Const);
  return Args;
}

UnshadowedFieldOffsets
unshadowedFieldsOfArguments(const CallBase &Call,
                            const ActivityAnalysis &Activity) {
  UnshadowedFieldOffsets Fields(Call.arg_size());
  bool Any = false;
  for (unsigned A = 0; A < Call.arg_size(); ++A) {
    const Value *Arg = Call.getArgOperand(A);
    if (Activity.passesShadow(Arg))
      Fields[A] = Activity.unshadowedFieldsOf(Arg);
    Any |= !Fields[A].empty();
  }
  if (!Any)
    Fields.clear();
  return Fields;
}

bool ActivityAnalysis::holdsOnlyUnshadowedPointers(const Value *Ptr) const {
  return localOnlyHolds(Ptr, [](const Value &Val) {
    return Val.getType()->isPointerTy() || isa<Constant>(Val);
  });
}

bool ActivityAnalysis::passesShadow(const Value *Arg) const {
  return carriesPointers(Arg->getType()) && isShadowed(Arg) &&
         !(Arg->getType()->isPointerTy() && holdsNoDerivatives(Arg));
}

bool ActivityAnalysis::mayStoreActiveArgument(const CallBase &Call) const {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Call.onlyReadsMemory() &&
         any_of(Call.args(), [&](const Use &U) { return isActive(U.get()); });
}

bool ActivityAnalysis::holdsNoDerivatives(const Value *Ptr) const {
  return localOnlyHolds(Ptr, [](const Value &Val) {
    Type *Ty = Val.getType();
    if (Ty->isPointerTy() || isa<Constant>(Val) || Ty->isFloatingPointTy())
      return true;
    // Integers too narrow to hold an address, or computed (an int argument
    // spilled at -O0, a count); a 64-bit integer read from memory may be a
    // pointer moved as an integer, whose shadow the local would then hold.
    if (!Ty->isIntegerTy())
      return false;
    return Ty->getIntegerBitWidth() < 64 ||
           (!isa<LoadInst>(Val) && !computedFromAddress(&Val));
  });
}

/// Forward propagation to a fixed point: an instruction is active when it
/// computes a differentiable value from an active or shadowed operand.
bool ActivityAnalysis::shadowOrigins(const Value *Ptr, bool Required,
                                     unsigned Depth) {
  if (Depth > 8 || isShadowed(Ptr))
    return false;
  auto Origins = [&](const Value *From) {
    return shadowOrigins(From, Required, Depth + 1);
  };
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(Ptr))
    return Origins(GEP->getPointerOperand());
  if (isa<BitCastInst>(Ptr) || isa<AddrSpaceCastInst>(Ptr) ||
      isa<FreezeInst>(Ptr))
    return Origins(cast<Instruction>(Ptr)->getOperand(0));
  if (isa<IntToPtrInst>(Ptr))
    if (const Value *Base =
            addressArithmeticBase(cast<Instruction>(Ptr)->getOperand(0)))
      return Origins(Base);
  // A pointer taken out of a small struct returned in registers ({ptr, ptr}
  // at -O0), or put into one.
  if (const auto *Extract = dyn_cast<ExtractValueInst>(Ptr))
    return Origins(Extract->getAggregateOperand());
  if (const auto *Insert = dyn_cast<InsertValueInst>(Ptr)) {
    bool Marked = Origins(Insert->getAggregateOperand());
    if (carriesPointers(Insert->getInsertedValueOperand()->getType()))
      Marked |= Origins(Insert->getInsertedValueOperand());
    return Marked;
  }
  if (const auto *Select = dyn_cast<SelectInst>(Ptr))
    return Origins(Select->getTrueValue()) | Origins(Select->getFalseValue());
  if (const auto *Phi = dyn_cast<PHINode>(Ptr)) {
    bool Marked = false;
    for (const Value *In : Phi->incoming_values())
      Marked |= Origins(In);
    return Marked;
  }
  // A pointer read from memory: its shadow is read from that memory's.
  if (const auto *Load = dyn_cast<LoadInst>(Ptr))
    return Origins(Load->getPointerOperand());
  // Arguments are as the caller marked them, globals as the user declared.
  const auto *Call = dyn_cast<CallBase>(Ptr);
  if (!Call || isa<IntrinsicInst>(Call) || isInactiveCall(*Call))
    return false;
  const Function *Callee = Call->getCalledFunction();
  if (!Required && (!Callee || Callee->isDeclaration()))
    return false;
  // Asked again on each round: what the call passes may gain shadows.
  if (!Required && Returns && Returns->returnsOnlyUnshadowed(*Call, *this))
    return false;
  return markShadowed(Call);
}

void ActivityAnalysis::propagate(Function &F) {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (isShadowSource(I)) {
        Changed |= markShadowed(&I);
        continue;
      }
      // Derivatives stored into memory need a shadow for it; a pointer
      // stored into shadowed memory, a shadow of its own to store there.
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        const Value *Val = Store->getValueOperand();
        const Value *Ptr = Store->getPointerOperand();
        if (isActive(Val) || isShadowed(Val))
          Changed |= shadowOrigins(Ptr, /*Required=*/true);
        else if (carriesPointers(Val->getType()) && isShadowed(Ptr))
          Changed |= shadowOrigins(Val, /*Required=*/false);
        continue;
      }
      // A masked store is a store of its lanes.
      if (auto *Masked = dyn_cast<IntrinsicInst>(&I);
          Masked && Masked->getIntrinsicID() == Intrinsic::masked_store) {
        const Value *Val = Masked->getArgOperand(0);
        if (isActive(Val) || isShadowed(Val))
          Changed |= shadowOrigins(Masked->getArgOperand(1), /*Required=*/true);
        continue;
      }
      if (auto *Copy = dyn_cast<MemTransferInst>(&I);
          Copy && isShadowed(Copy->getSource())) {
        Changed |= shadowOrigins(Copy->getDest(), /*Required=*/true);
        continue;
      }
      // As does memory returned to a caller that needs its shadow.
      if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
        if (ReturnShadow && Ret->getReturnValue())
          Changed |= shadowOrigins(Ret->getReturnValue(), /*Required=*/true);
        continue;
      }
      if (auto *Load = dyn_cast<LoadInst>(&I)) {
        if (!isShadowed(Load->getPointerOperand()) ||
            (Load->getType()->isPointerTy() && onlyLocatesCallees(Load)))
          continue;
        // A local's shadow holds the shadows of the pointers stored there;
        // where none of them has one (an enzyme_const pointer spilled at
        // -O0), it holds null, which is no shadow to read or write through.
        if (Load->getType()->isPointerTy() &&
            (holdsOnlyUnshadowedPointers(Load->getPointerOperand()) ||
             readsUnshadowedField(Load->getPointerOperand())))
          continue;
        Changed |= markActive(Load) | markShadowed(Load);
        continue;
      }
      if (LoadInst *Load = integerLoadOfPointer(I)) {
        if (isShadowed(Load->getPointerOperand()))
          Changed |= markShadowed(&I);
        continue;
      }
      if (isa<IntToPtrInst>(I)) {
        if (const Value *Base = addressArithmeticBase(I.getOperand(0));
            Base && isShadowed(Base))
          Changed |= markShadowed(&I);
        continue;
      }
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (isInactiveCall(*Call))
          continue;
        bool AnyInput = mayTouchShadowedGlobals(*Call) ||
                        any_of(Call->args(), [&](const Use &U) {
                          return isActive(U.get()) || isShadowed(U.get());
                        });
        // A block from an allocation wrapper (Eigen's aligned_malloc) can
        // hold derivatives as malloc's does: the wrapper's augmented copy
        // returns its shadow.
        const Function *Callee = Call->getCalledFunction();
        if (AnyInput || (Callee && returnsFreshMemory(*Callee, 0)))
          Changed |= markActive(Call) | markShadowed(Call);
        continue;
      }
      bool AnyActive =
          any_of(I.operands(), [&](const Use &U) { return isActive(U.get()); });
      bool AnyShadowed = any_of(
          I.operands(), [&](const Use &U) { return isShadowed(U.get()); });
      if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<GetElementPtrInst>(I) ||
          isa<CastInst>(I) || isa<ExtractValueInst>(I) ||
          isa<InsertValueInst>(I) || isa<FreezeInst>(I) ||
          isa<ExtractElementInst>(I) || isa<InsertElementInst>(I) ||
          isa<ShuffleVectorInst>(I)) {
        if (AnyShadowed)
          Changed |= markShadowed(&I);
      }
      // Reinterpreting the bits of a float as other floats (double as
      // <2 x float>) has no derivative; only same-element bitcasts carry one.
      if (auto *Cast = dyn_cast<BitCastInst>(&I)) {
        // Optimised code copies a double as an i64 and reinterprets it: a
        // float read from shadowed memory as an integer is still active.
        auto *Load = dyn_cast<LoadInst>(Cast->getOperand(0));
        // Packet code does the same with vectors (an <4 x i32> load of two
        // doubles).
        if (Load && Load->getType()->isIntOrIntVectorTy() &&
            isShadowed(Load->getPointerOperand()) &&
            Cast->getDestTy()->isFPOrFPVectorTy()) {
          Changed |= markActive(Cast);
          continue;
        }
        if (Cast->getSrcTy()->getScalarType() !=
            Cast->getDestTy()->getScalarType())
          continue;
      }
      if (AnyActive)
        Changed |= markActive(&I);
    }
  }
}

} // namespace enzyme
