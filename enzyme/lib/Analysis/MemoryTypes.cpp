//===- MemoryTypes.cpp - What kind of values memory holds -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryTypes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <limits>

using namespace llvm;

namespace enzyme {

/// The name of the scalar type a TBAA access tag names; empty when the
/// access is untagged.
static StringRef tbaaTagTypeName(const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 2)
    return "";
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Access || Access->getNumOperands() < 1)
    return "";
  auto *Name = dyn_cast<MDString>(Access->getOperand(0));
  return Name ? Name->getString() : "";
}

static StringRef tbaaTypeName(const Instruction &I) {
  return tbaaTagTypeName(I.getMetadata(LLVMContext::MD_tbaa));
}

/// The type a TBAA access tag names, when it is a C floating-point type.
static Type *typeFromTBAA(const Instruction &I) {
  StringRef Name = tbaaTypeName(I);
  LLVMContext &Ctx = I.getContext();
  if (Name == "double")
    return Type::getDoubleTy(Ctx);
  if (Name == "float")
    return Type::getFloatTy(Ctx);
  return nullptr;
}

Type *inferFloatElementType(Value *Dst, Value *Src, const Instruction *Access) {
  if (Access)
    if (Type *Ty = typeFromTBAA(*Access))
      return Ty;
  for (Value *Ptr : {Dst, Src}) {
    if (!Ptr)
      continue;
    Value *Base = getUnderlyingObject(Ptr);
    for (User *U : Base->users()) {
      Type *Ty = nullptr;
      if (auto *L = dyn_cast<LoadInst>(U))
        Ty = L->getType();
      else if (auto *S = dyn_cast<StoreInst>(U))
        Ty = S->getValueOperand()->getType();
      else if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
        Ty = GEP->getResultElementType();
      if (Ty && Ty->isFloatingPointTy())
        return Ty;
    }
  }
  return nullptr;
}

/// How deep the search for other accesses of copied bytes follows calls
/// (into callees that receive the memory, out to callers that pass it).
static constexpr unsigned MaxAccessSearchDepth = 2;

/// The stack slot \p V is loaded from, when one store fills it (unoptimised
/// code keeps every variable, pointer arguments included, in such a slot).
static const AllocaInst *singleStoreSlot(const Value *Slot) {
  auto *Alloca = dyn_cast<AllocaInst>(Slot);
  if (!Alloca)
    return nullptr;
  unsigned Stores = 0;
  for (const User *U : Alloca->users()) {
    if (auto *Store = dyn_cast<StoreInst>(U))
      Stores += Store->getPointerOperand() == Alloca ? 1 : 2;
    else if (!isa<LoadInst>(U))
      return nullptr;
  }
  return Stores == 1 ? Alloca : nullptr;
}

/// \p V and the values known to equal it: loads of stack slots that one
/// store fills with it, and the value stored to the slot \p V is loaded
/// from.
static SmallPtrSet<const Value *, 4> valuesEqualTo(const Value *V) {
  SmallPtrSet<const Value *, 4> Equal = {V};
  SmallVector<const Value *, 4> Stored = {V};
  if (auto *Load = dyn_cast<LoadInst>(V))
    if (const AllocaInst *Slot = singleStoreSlot(Load->getPointerOperand()))
      for (const User *U : Slot->users())
        if (auto *Store = dyn_cast<StoreInst>(U))
          Stored.push_back(Store->getValueOperand());
  for (const Value *Source : Stored) {
    Equal.insert(Source);
    for (const User *U : Source->users()) {
      auto *Store = dyn_cast<StoreInst>(U);
      const AllocaInst *Slot = Store && Store->getValueOperand() == Source
                                   ? singleStoreSlot(Store->getPointerOperand())
                                   : nullptr;
      if (Slot)
        for (const User *SlotUser : Slot->users())
          if (isa<LoadInst>(SlotUser))
            Equal.insert(SlotUser);
    }
  }
  return Equal;
}

/// Calls \p Visit(offset from Begin, access) for each load and store in
/// \p F of bytes in [Begin, End) from \p Base, apart from \p Skip; follows
/// \p Base into the callees it is passed to and, when it is an argument of
/// \p F (or of \p Original, of which \p F is a copy), out to the callers
/// that pass it.
static void forEachAccessOf(const Value *Base, int64_t Begin, int64_t End,
                            Function &F, const Function *Original,
                            ArrayRef<Instruction *> Skip, unsigned Depth,
                            function_ref<void(int64_t, Instruction &)> Visit) {
  const DataLayout &DL = F.getDataLayout();
  SmallPtrSet<const Value *, 4> Bases = valuesEqualTo(Base);
  auto IsBase = [&](const Value *Ptr, int64_t &Offset) {
    return Bases.contains(GetPointerBaseWithConstantOffset(Ptr, Offset, DL));
  };
  for (Instruction &I : instructions(F)) {
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      Function *Callee = Call->getCalledFunction();
      if (!Depth || !Callee || Callee->isDeclaration() || Callee == &F)
        continue;
      for (const Use &Arg : Call->args()) {
        int64_t Offset = 0;
        if (!Arg->getType()->isPointerTy() ||
            Arg.getOperandNo() >= Callee->arg_size() ||
            !IsBase(Arg.get(), Offset))
          continue;
        forEachAccessOf(Callee->getArg(Arg.getOperandNo()), Begin - Offset,
                        End - Offset, *Callee, nullptr, {}, Depth - 1, Visit);
      }
      continue;
    }
    const Value *Ptr = getLoadStorePointerOperand(&I);
    if (!Ptr || is_contained(Skip, &I))
      continue;
    int64_t Offset = 0;
    if (!IsBase(Ptr, Offset))
      continue;
    int64_t Size = DL.getTypeStoreSize(getLoadStoreType(&I));
    if (Offset < End && Offset + Size > Begin)
      Visit(Offset - Begin, I);
  }

  const Argument *Arg = nullptr;
  for (const Value *V : Bases)
    if (auto *A = dyn_cast<Argument>(V); A && A->getParent() == &F)
      Arg = A;
  const Function *Called = Original ? Original : &F;
  if (!Depth || !Arg)
    return;
  for (const User *U : Called->users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != Called ||
        Arg->getArgNo() >= Call->arg_size())
      continue;
    int64_t Offset = 0;
    const Value *CallerBase = GetPointerBaseWithConstantOffset(
        Call->getArgOperand(Arg->getArgNo()), Offset, DL);
    forEachAccessOf(CallerBase, Begin + Offset, End + Offset,
                    *const_cast<Function *>(Call->getFunction()), nullptr, {},
                    Depth - 1, Visit);
  }
}

/// How far the search for the declared type of copied memory follows
/// arguments out to callers: unoptimised C++ passes an object down a chain
/// of constructors (unique_ptr, __uniq_ptr_data, __uniq_ptr_impl, tuple,
/// _Tuple_impl) before the last one copies its bytes.
static constexpr unsigned MaxDeclaredTypeSearchDepth = 8;

/// Calls \p Visit(offset from Begin, type) for each pointer, integer and
/// floating-point scalar of \p Ty, placed at \p At, within [Begin, End).
static void forEachScalarOf(Type *Ty, int64_t At, int64_t Begin, int64_t End,
                            const DataLayout &DL,
                            function_ref<void(int64_t, Type *)> Visit) {
  if (!Ty->isSized() || At >= End ||
      At + int64_t(DL.getTypeAllocSize(Ty).getFixedValue()) <= Begin)
    return;
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      forEachScalarOf(ST->getElementType(I),
                      At + int64_t(SL->getElementOffset(I).getFixedValue()),
                      Begin, End, DL, Visit);
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    int64_t Size = DL.getTypeAllocSize(AT->getElementType()).getFixedValue();
    for (uint64_t K = 0; K < AT->getNumElements() && Size > 0; ++K) {
      int64_t ElemAt = At + int64_t(K) * Size;
      if (ElemAt >= End)
        break;
      forEachScalarOf(AT->getElementType(), ElemAt, Begin, End, DL, Visit);
    }
    return;
  }
  if (Ty->isPointerTy() || Ty->isFloatingPointTy() || Ty->isIntegerTy())
    Visit(At - Begin, Ty);
}

/// Calls \p Visit for the scalars that the declared type of the object
/// \p Base stands for holds in [Begin, End): a local or a global of a
/// struct type, reached from an argument through the callers that pass it
/// (unoptimised code keeps its allocas typed).
static void forEachDeclaredScalar(const Value *Base, int64_t Begin, int64_t End,
                                  const Function *Original, unsigned Depth,
                                  function_ref<void(int64_t, Type *)> Visit) {
  if (auto *AI = dyn_cast<AllocaInst>(Base)) {
    if (!AI->isArrayAllocation())
      forEachScalarOf(AI->getAllocatedType(), 0, Begin, End,
                      AI->getDataLayout(), Visit);
    return;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
    forEachScalarOf(GV->getValueType(), 0, Begin, End,
                    GV->getParent()->getDataLayout(), Visit);
    return;
  }
  auto *Arg = dyn_cast<Argument>(Base);
  if (!Arg || !Depth)
    return;
  const Function *Called = Original ? Original : Arg->getParent();
  const DataLayout &DL = Called->getDataLayout();
  for (const User *U : Called->users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != Called ||
        Arg->getArgNo() >= Call->arg_size())
      continue;
    int64_t Offset = 0;
    const Value *CallerBase = GetPointerBaseWithConstantOffset(
        Call->getArgOperand(Arg->getArgNo()), Offset, DL);
    for (const Value *V : valuesEqualTo(CallerBase))
      if (isa<Argument>(V) || isa<AllocaInst>(V) || isa<GlobalVariable>(V))
        forEachDeclaredScalar(V, Begin + Offset, End + Offset, nullptr,
                              Depth - 1, Visit);
  }
}

SmallVector<std::pair<int64_t, Type *>, 8>
CopyLayout::slotsWithin(uint64_t Length,
                        function_ref<bool(Type *)> Want) const {
  SmallVector<std::pair<int64_t, Type *>, 8> Result;
  for (const auto &[Offset, Ty] : Slots) {
    int64_t At = Offset;
    if (Want(Ty) && At >= 0 && uint64_t(At) < Length &&
        none_of(Result, [At](const auto &S) { return S.first == At; }))
      Result.emplace_back(At, Ty);
  }
  return Result;
}

static bool isPointerTypeName(StringRef Name);

/// \p I, an integer load or store, moves an address: it stores a
/// `ptrtoint`, its loaded value becomes a pointer again, or its TBAA tag
/// names a pointer type.
static bool movesAddress(const Instruction &I) {
  StringRef Tag = tbaaTypeName(I);
  if (Tag == "any pointer" || isPointerTypeName(Tag))
    return true;
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return isa<PtrToIntInst>(Store->getValueOperand());
  return any_of(I.users(), [](const User *U) { return isa<IntToPtrInst>(U); });
}

/// The fields that a `!tbaa.struct` tag (clang's description of a struct
/// copy: offset, size and access tag of each scalar field) names, as
/// (offset, type); floats and pointers only.
static void forEachTBAAStructField(const Instruction &Copy,
                                   function_ref<void(int64_t, Type *)> Visit) {
  MDNode *Fields = Copy.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!Fields)
    return;
  LLVMContext &Ctx = Copy.getContext();
  for (unsigned I = 0; I + 2 < Fields->getNumOperands(); I += 3) {
    auto *Offset = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(I));
    auto *Tag = dyn_cast<MDNode>(Fields->getOperand(I + 2));
    if (!Offset || !Tag)
      continue;
    StringRef Name = tbaaTagTypeName(Tag);
    Type *Ty = nullptr;
    if (Name == "double")
      Ty = Type::getDoubleTy(Ctx);
    else if (Name == "float")
      Ty = Type::getFloatTy(Ctx);
    else if (Name == "long double")
      Ty = Type::getX86_FP80Ty(Ctx);
    else if (Name == "any pointer" || isPointerTypeName(Name))
      Ty = PointerType::getUnqual(Ctx);
    if (Ty)
      Visit(Offset->getSExtValue(), Ty);
  }
}

CopyLayout analyzeCopyLayout(Value *Dst, Value *Src, Function &F,
                             const Function *Original,
                             std::optional<uint64_t> Length,
                             const Instruction *Copy) {
  const DataLayout &DL = F.getDataLayout();
  // Only the bytes copied say what the copy moves; a copy of unknown length
  // reaches as far as the objects do.
  int64_t Extent =
      Length ? int64_t(*Length) : std::numeric_limits<int64_t>::max() / 2;
  CopyLayout Layout;
  auto Add = [&](int64_t Offset, Type *Ty) {
    Layout.HasPointers |= Ty->isPointerTy();
    Layout.HasFloats |= Ty->isFloatingPointTy();
    Layout.Slots.emplace_back(Offset, Ty);
  };
  // Clang describes the struct a copy moves: that is the layout.
  if (Copy) {
    forEachTBAAStructField(*Copy, Add);
    if (!Layout.Slots.empty())
      return Layout;
  }
  for (Value *End : {Dst, Src}) {
    int64_t EndOffset = 0;
    Value *Base = GetPointerBaseWithConstantOffset(End, EndOffset, DL);
    forEachAccessOf(Base, EndOffset, EndOffset + Extent, F, Original, {},
                    MaxAccessSearchDepth, [&](int64_t Offset, Instruction &I) {
                      Type *Ty = getLoadStoreType(&I);
                      if (Ty->isIntegerTy() && movesAddress(I))
                        Ty = PointerType::getUnqual(I.getContext());
                      Add(Offset, Ty);
                    });
  }
  if (Layout.HasPointers || Layout.HasFloats)
    return Layout;
  // No access says (or only integer accesses do, which may be pointers or
  // floats moved as integers): the declared types of the objects copied may.
  for (Value *End : {Dst, Src}) {
    int64_t EndOffset = 0;
    Value *Base = GetPointerBaseWithConstantOffset(End, EndOffset, DL);
    forEachDeclaredScalar(Base, EndOffset, EndOffset + Extent, Original,
                          MaxDeclaredTypeSearchDepth, Add);
  }
  return Layout;
}

/// Clang's pointer-type TBAA names: "p<depth> <pointee>".
static bool isPointerTypeName(StringRef Name) {
  if (!Name.consume_front("p"))
    return false;
  size_t Digits = Name.find_first_not_of("0123456789");
  return Digits > 0 && Digits != StringRef::npos && Name[Digits] == ' ';
}

namespace {
/// Evidence for what some bytes hold, gathered from several accesses.
struct ContentEvidence {
  bool Pointers = false, Integers = false;
  Type *Float = nullptr;

  void addType(Type *Ty) {
    Ty = Ty->getScalarType();
    if (Ty->isPointerTy())
      Pointers = true;
    else if (Ty->isFloatingPointTy() && !Float)
      Float = Ty;
    else if (Ty->isIntegerTy())
      Integers = true;
  }

  /// What the TBAA tag of \p I says; false when it says nothing.
  bool addTag(const Instruction &I) {
    StringRef Name = tbaaTypeName(I);
    if (Name.empty() || Name == "omnipotent char")
      return false;
    if (Type *Ty = typeFromTBAA(I))
      addType(Ty);
    else if (Name == "any pointer" || isPointerTypeName(Name))
      Pointers = true;
    else
      Integers = true;
    return true;
  }

  /// What the untagged integer access \p I says by the way its value is
  /// produced or used: integer arithmetic means integers; a value that is
  /// only moved (a constant, a load, stored, reinterpreted) says nothing.
  void addIntegerUse(const Instruction &I) {
    if (auto *Store = dyn_cast<StoreInst>(&I)) {
      const Value *V = Store->getValueOperand();
      if (auto *Cast = dyn_cast<BitCastInst>(V))
        return addType(Cast->getSrcTy());
      if (isa<PtrToIntInst>(V))
        Pointers = true;
      else if (!isa<Constant>(V) && !isa<LoadInst>(V))
        Integers = true;
      return;
    }
    for (const User *U : I.users()) {
      if (auto *Cast = dyn_cast<BitCastInst>(U))
        addType(Cast->getDestTy());
      else if (isa<IntToPtrInst>(U))
        Pointers = true;
      else if (!isa<StoreInst>(U))
        Integers = true;
    }
  }

  IntegerAccessContents result() const {
    IntegerAccessContents C;
    if (Pointers)
      C.What = IntegerAccessContents::Pointers;
    else if (Float)
      C = {IntegerAccessContents::Floats, Float};
    else if (Integers)
      C.What = IntegerAccessContents::Integers;
    return C;
  }
};
} // namespace

IntegerAccessContents classifyIntegerAccess(ArrayRef<Instruction *> Accesses,
                                            const Function *Original,
                                            bool OnlyMoved) {
  ContentEvidence Evidence;
  for (const Instruction *Access : Accesses)
    if (!Evidence.addTag(*Access) && !OnlyMoved)
      Evidence.addIntegerUse(*Access);
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // The other accesses of the same bytes, here and in the callees and
  // callers the memory travels through.
  Function &F = *Accesses.front()->getFunction();
  const DataLayout &DL = F.getDataLayout();
  for (Instruction *Access : Accesses) {
    int64_t Begin = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(
        getLoadStorePointerOperand(Access), Begin, DL);
    int64_t End = Begin + DL.getTypeStoreSize(getLoadStoreType(Access));
    forEachAccessOf(Base, Begin, End, F, Original, Accesses,
                    MaxAccessSearchDepth, [&](int64_t, Instruction &I) {
                      Type *Ty = getLoadStoreType(&I);
                      if (!Ty->isIntegerTy())
                        Evidence.addType(Ty);
                      else if (!Evidence.addTag(I))
                        Evidence.addIntegerUse(I);
                    });
  }
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // The declared types of the objects (unoptimised code keeps its locals
  // typed): an object passed down a chain of constructors that each touch
  // only part of it, say.
  for (Instruction *Access : Accesses) {
    int64_t Begin = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(
        getLoadStorePointerOperand(Access), Begin, DL);
    int64_t End = Begin + DL.getTypeStoreSize(getLoadStoreType(Access));
    forEachDeclaredScalar(Base, Begin, End, Original,
                          MaxDeclaredTypeSearchDepth,
                          [&](int64_t, Type *Ty) { Evidence.addType(Ty); });
  }
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // Element accesses of the same objects at offsets only known at run time
  // (x[i] beside a copy of x[0]).
  for (Instruction *Access : Accesses)
    if (Type *Ty =
            inferFloatElementType(getLoadStorePointerOperand(Access), nullptr))
      return {IntegerAccessContents::Floats, Ty};
  return {};
}

bool hasTypeBasedAliasInfo(const Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (I.hasMetadata(LLVMContext::MD_tbaa))
        return true;
  return false;
}

} // namespace enzyme
