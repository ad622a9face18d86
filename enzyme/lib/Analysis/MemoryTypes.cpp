//===- MemoryTypes.cpp - What kind of values memory holds -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryTypes.h"

#include "Analysis/AccessIndex.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

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

const AllocaInst *singleStoreSlot(const Value *Slot) {
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

static SmallPtrSet<const Value *, 4> valuesEqualTo(const Value *V,
                                                   unsigned Depth = 0);

/// How deep valuesEqualTo looks through calls that return an argument.
static constexpr unsigned MaxPassThroughDepth = 4;

/// For \p V, a call of a function that returns one of its pointer
/// arguments unchanged (std::move, std::forward, std::addressof, a
/// `derived()` returning `*this`: real calls at -O0), the operand passed
/// for it; nullptr otherwise.
static const Value *passedThrough(const Value *V, unsigned Depth) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration() || !V->getType()->isPointerTy() ||
      Depth >= MaxPassThroughDepth)
    return nullptr;
  const Argument *Returned = nullptr;
  for (const BasicBlock &BB : *Callee) {
    const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    const Argument *Arg = nullptr;
    for (const Value *Equal : valuesEqualTo(Ret->getReturnValue(), Depth + 1))
      if (const auto *A = dyn_cast<Argument>(Equal))
        Arg = A;
    if (!Arg || (Returned && Returned != Arg))
      return nullptr;
    Returned = Arg;
  }
  if (!Returned || Returned->getArgNo() >= Call->arg_size())
    return nullptr;
  return Call->getArgOperand(Returned->getArgNo());
}

/// \p V and the values known to equal it: loads of stack slots that one
/// store fills with it, the value stored to the slot \p V is loaded from,
/// and what calls that return an argument unchanged were passed.
static SmallPtrSet<const Value *, 4> valuesEqualTo(const Value *V,
                                                   unsigned Depth) {
  SmallPtrSet<const Value *, 4> Equal = {V};
  SmallVector<const Value *, 4> Stored = {V};
  if (auto *Load = dyn_cast<LoadInst>(V))
    if (const AllocaInst *Slot = singleStoreSlot(Load->getPointerOperand()))
      for (const User *U : Slot->users())
        if (auto *Store = dyn_cast<StoreInst>(U))
          Stored.push_back(Store->getValueOperand());
  for (unsigned I = 0, E = Stored.size(); I < E; ++I)
    if (const Value *Through = passedThrough(Stored[I], Depth))
      for (const Value *Equal : valuesEqualTo(Through, Depth + 1))
        Stored.push_back(Equal);
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

/// \p V followed back through the stack slots that one store fills and the
/// calls that return an argument unchanged (of unoptimised code), with
/// \p Strip applied at each step.
static const Value *
followStoredCopies(const Value *V,
                   function_ref<const Value *(const Value *)> Strip) {
  // A bound on the chain: unoptimised Thrust passes a pointer through a
  // handful of slots and casts.
  for (unsigned Step = 0; Step < 16; ++Step) {
    V = Strip(V);
    const auto *Load = dyn_cast<LoadInst>(V);
    if (const AllocaInst *Slot =
            Load ? singleStoreSlot(Load->getPointerOperand()) : nullptr) {
      for (const User *U : Slot->users())
        if (const auto *Store = dyn_cast<StoreInst>(U))
          V = Store->getValueOperand();
      continue;
    }
    const Value *Through = passedThrough(V, 0);
    if (!Through)
      break;
    V = Through;
  }
  return V;
}

const Value *forwardedSource(const Value *V) {
  return followStoredCopies(
      V, [](const Value *V) { return getUnderlyingObject(V); });
}

Type *annotatedType(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Call.arg_size() < 1 || Call.arg_size() > 2 ||
      !Call.getArgOperand(0)->getType()->isPointerTy())
    return nullptr;
  StringRef Name = Callee->getName();
  LLVMContext &Ctx = Call.getContext();
  if (Name.starts_with("__enzyme_double"))
    return Type::getDoubleTy(Ctx);
  if (Name.starts_with("__enzyme_float"))
    return Type::getFloatTy(Ctx);
  if (Name.starts_with("__enzyme_integer"))
    return Type::getInt64Ty(Ctx);
  if (Name.starts_with("__enzyme_pointer"))
    return PointerType::getUnqual(Ctx);
  return nullptr;
}

/// Calls \p Visit(offset from Begin, type) for the elements that the
/// annotation \p Call says memory holds within [Begin, End), its pointer
/// being \p At bytes from the start of the object: as many bytes as its
/// second argument says, or, without one, the object from there on (at
/// most 4096 elements).
static void forEachAnnotatedElement(const CallBase &Call, Type *Ty, int64_t At,
                                    int64_t Begin, int64_t End,
                                    const DataLayout &DL,
                                    function_ref<void(int64_t, Type *)> Visit) {
  int64_t Size = DL.getTypeStoreSize(Ty);
  int64_t Last = End;
  if (Call.arg_size() == 2) {
    auto *Bytes = dyn_cast<ConstantInt>(Call.getArgOperand(1));
    if (!Bytes)
      return;
    Last = std::min(End, At + int64_t(Bytes->getZExtValue()));
  }
  int64_t First = std::max(At, Begin - (Begin - At) % Size);
  for (int64_t Offset = First, K = 0; Offset < Last && K < 4096;
       Offset += Size, ++K)
    if (Offset + Size > Begin)
      Visit(Offset - Begin, Ty);
}

/// Calls \p Visit(offset from Begin, access) for each load and store in
/// \p F of bytes in [Begin, End) from \p Base, apart from \p Skip, and
/// (with \p Annotated) for what the annotations of those bytes say
/// (`__enzyme_double(p, bytes)`), in program order; follows \p Base into
/// the callees it is passed to and, when it is an argument of \p F (or of
/// \p Original, of which \p F is a copy), out to the callers that pass it.
/// A callee's argument is not followed out to the callee's callers
/// (\p InCallee): they pass other objects.
static void forEachAccessOf(const Value *Base, int64_t Begin, int64_t End,
                            Function &F, const Function *Original,
                            ArrayRef<Instruction *> Skip, unsigned Depth,
                            AccessIndex &Index,
                            function_ref<void(int64_t, Instruction &)> Visit,
                            function_ref<void(int64_t, Type *)> Annotated,
                            const Function *Self = nullptr,
                            bool InCallee = false) {
  // The function the search started in is not searched again through a
  // caller: its accesses, the ones being classified among them, were seen.
  if (!Self)
    Self = Original ? Original : &F;
  const DataLayout &DL = F.getDataLayout();
  SmallPtrSet<const Value *, 4> Bases = valuesEqualTo(Base);
  SmallVector<AccessIndex::Access, 16> Accesses;
  for (const Value *Equal : Bases)
    append_range(Accesses, Index.accessesOf(F, Equal));
  // Each access is filed once: (position, argument) orders them all.
  llvm::sort(
      Accesses, [](const AccessIndex::Access &A, const AccessIndex::Access &B) {
        return std::tie(A.Position, A.ArgNo) < std::tie(B.Position, B.ArgNo);
      });
  for (const AccessIndex::Access &A : Accesses) {
    switch (A.What) {
    case AccessIndex::Access::Annotation:
      forEachAnnotatedElement(cast<CallBase>(*A.I), A.Annotated, A.Offset,
                              Begin, End, DL, Annotated);
      break;
    case AccessIndex::Access::CallArgument: {
      Function *Callee = cast<CallBase>(A.I)->getCalledFunction();
      if (!Depth || Callee == &F || Callee == Self)
        break;
      forEachAccessOf(Callee->getArg(A.ArgNo), Begin - A.Offset, End - A.Offset,
                      *Callee, nullptr, {}, Depth - 1, Index, Visit, Annotated,
                      Self, /*InCallee=*/true);
      break;
    }
    case AccessIndex::Access::LoadOrStore: {
      if (is_contained(Skip, A.I))
        break;
      int64_t Size = DL.getTypeStoreSize(getLoadStoreType(A.I));
      if (A.Offset < End && A.Offset + Size > Begin)
        Visit(A.Offset - Begin, *A.I);
      break;
    }
    }
  }

  const Argument *Arg = nullptr;
  for (const Value *V : Bases)
    if (auto *A = dyn_cast<Argument>(V); A && A->getParent() == &F)
      Arg = A;
  const Function *Called = Original ? Original : &F;
  if (!Depth || !Arg || InCallee)
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
                    Depth - 1, Index, Visit, Annotated, Self);
  }
}

/// How far the search for the declared type of copied memory follows
/// arguments out to callers: unoptimised C++ passes an object down a chain
/// of constructors (unique_ptr, __uniq_ptr_data, __uniq_ptr_impl, tuple,
/// _Tuple_impl) before the last one copies its bytes.
static constexpr unsigned MaxDeclaredTypeSearchDepth = 8;

bool isUnion(const Type *Ty) {
  const auto *ST = dyn_cast<StructType>(Ty);
  return ST && ST->hasName() && ST->getName().starts_with("union.");
}

bool holdsUnion(const Type *Ty) {
  if (isUnion(Ty))
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(Ty))
    return holdsUnion(AT->getElementType());
  if (const auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), [](const Type *E) { return holdsUnion(E); });
  return false;
}

/// Calls \p Visit(offset from Begin, type) for each pointer, integer and
/// floating-point scalar of \p Ty, placed at \p At, within [Begin, End).
static void forEachScalarOf(Type *Ty, int64_t At, int64_t Begin, int64_t End,
                            const DataLayout &DL,
                            function_ref<void(int64_t, Type *)> Visit) {
  if (!Ty->isSized() || At >= End ||
      At + int64_t(DL.getTypeAllocSize(Ty).getFixedValue()) <= Begin)
    return;
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    // A union's type is one of its members' (std::function's _Any_data is
    // two i64s, whatever it holds): it says nothing.
    if (isUnion(ST))
      return;
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
  // A byte (char, unsigned char, std::byte) may hold any object's bytes.
  if (Ty->isPointerTy() || Ty->isFloatingPointTy() ||
      (Ty->isIntegerTy() && !Ty->isIntegerTy(8)))
    Visit(At - Begin, Ty);
}

/// Calls \p Visit(begin, end) for the byte ranges of \p Ty, placed at
/// \p At, within [Begin, End) that none of its scalars holds: between and
/// after a struct's fields, past a scalar's stored bytes (x86_fp80 stores
/// ten of its sixteen). A union holds all its bytes (its IR type shows one
/// member).
static void forEachPaddingOf(Type *Ty, int64_t At, int64_t Begin, int64_t End,
                             const DataLayout &DL,
                             function_ref<void(int64_t, int64_t)> Visit) {
  if (!Ty->isSized())
    return;
  int64_t Size = DL.getTypeAllocSize(Ty).getFixedValue();
  if (At >= End || At + Size <= Begin || isUnion(Ty))
    return;
  auto Gap = [&](int64_t From, int64_t To) {
    From = std::max(From, Begin);
    To = std::min(To, End);
    if (From < To)
      Visit(From, To);
  };
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    int64_t Next = At;
    for (unsigned I = 0; I < ST->getNumElements(); ++I) {
      Type *Field = ST->getElementType(I);
      int64_t FieldAt = At + int64_t(SL->getElementOffset(I).getFixedValue());
      Gap(Next, FieldAt);
      forEachPaddingOf(Field, FieldAt, Begin, End, DL, Visit);
      Next = FieldAt + int64_t(DL.getTypeAllocSize(Field).getFixedValue());
    }
    Gap(Next, At + Size);
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    int64_t ElementSize =
        DL.getTypeAllocSize(AT->getElementType()).getFixedValue();
    if (ElementSize <= 0)
      return;
    uint64_t First = std::max<int64_t>(0, (Begin - At) / ElementSize);
    for (uint64_t K = First; K < AT->getNumElements(); ++K) {
      int64_t ElementAt = At + int64_t(K) * ElementSize;
      if (ElementAt >= End)
        break;
      forEachPaddingOf(AT->getElementType(), ElementAt, Begin, End, DL, Visit);
    }
    return;
  }
  Gap(At + int64_t(DL.getTypeStoreSize(Ty).getFixedValue()), At + Size);
}

/// The ranges \p Ranges cover every byte of [Begin, End).
static bool coversBytes(SmallVectorImpl<std::pair<int64_t, int64_t>> &Ranges,
                        int64_t Begin, int64_t End) {
  sort(Ranges);
  int64_t Covered = Begin;
  for (auto [From, To] : Ranges) {
    if (From > Covered)
      return false;
    Covered = std::max(Covered, To);
  }
  return Covered >= End;
}

/// An object of a declared type and where an address points in it.
struct DeclaredObject {
  Type *Ty = nullptr;
  /// The address's offset from the start of the object.
  int64_t Offset = 0;
};

/// The object that \p Ptr points into when its address is typed pointer
/// arithmetic, as clang emits it (and unoptimised code keeps it): a member,
/// `getelementptr %T, ptr %p, 0, i, ...`, is in a %T; an element,
/// `getelementptr T, ptr %p, i64 %i`, is a T, and a member of one,
/// `getelementptr %T, ptr %p, i64 %i, i32 1`, is in a %T. Nothing for
/// anything else (a byte offset, `getelementptr i8`, says nothing).
static std::optional<DeclaredObject> declaredObjectAt(const Value *Ptr,
                                                      const DataLayout &DL) {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP)
    return std::nullopt;
  Type *Source = GEP->getSourceElementType();
  if (Source->isIntegerTy(8) || !Source->isSized() || GEP->getNumIndices() == 0)
    return std::nullopt;
  // The offset within the object that the first index selects. An array
  // element chosen at run time (`&a[i]` of a member array) is an object of
  // the element type: the indices after it place the address in that.
  SmallVector<Value *, 4> Inner = {
      ConstantInt::get(GEP->idx_begin()->get()->getType(), 0)};
  for (auto It = std::next(GEP->idx_begin()); It != GEP->idx_end(); ++It) {
    if (!isa<ConstantInt>(It->get())) {
      Type *Indexed = GetElementPtrInst::getIndexedType(Source, Inner);
      auto *Array = dyn_cast_or_null<ArrayType>(Indexed);
      if (!Array)
        return std::nullopt;
      Source = Array->getElementType();
      Inner.assign(1, ConstantInt::get(It->get()->getType(), 0));
      continue;
    }
    Inner.push_back(It->get());
  }
  int64_t Within = DL.getIndexedOffsetInType(Source, Inner);
  return DeclaredObject{Source, Within};
}

/// The object that the address the call \p V returns points into, when
/// its callee returns typed pointer arithmetic (declaredObjectAt), or what
/// a call it makes returns, the same in every return: an accessor such as
/// `std::array::operator[]` returning `_S_ref(_M_elems, i)`, which returns
/// `&a[i]` (real calls at -O0).
static std::optional<DeclaredObject>
returnedObject(const Value *V, const DataLayout &DL, unsigned Depth = 0) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration() || !V->getType()->isPointerTy() ||
      Depth >= MaxPassThroughDepth)
    return std::nullopt;
  std::optional<DeclaredObject> Result;
  for (const BasicBlock &BB : *Callee) {
    const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    std::optional<DeclaredObject> Object;
    for (const Value *Equal : valuesEqualTo(Ret->getReturnValue()))
      if (!Object)
        Object = isa<CallBase>(Equal) ? returnedObject(Equal, DL, Depth + 1)
                                      : declaredObjectAt(Equal, DL);
    if (!Object || (Result && (Result->Ty != Object->Ty ||
                               Result->Offset != Object->Offset)))
      return std::nullopt;
    Result = Object;
  }
  return Result;
}

/// How far arrayElementTypeOf follows arguments out to callers.
static constexpr unsigned MaxArrayCallerDepth = 2;

/// The metadata that recordDeclaredObjects leaves on a load or store (for
/// its address), and on a memory transfer (for its destination and source).
static constexpr const char *AccessObjectKind = "enzyme.object";
static constexpr const char *CopyDestinationObjectKind = "enzyme.object.dst";
static constexpr const char *CopySourceObjectKind = "enzyme.object.src";

static void recordObject(Instruction &I, StringRef Kind, const Value *Ptr,
                         const DataLayout &DL) {
  std::optional<DeclaredObject> Object = declaredObjectAt(Ptr, DL);
  if (!Object)
    return;
  LLVMContext &Ctx = I.getContext();
  I.setMetadata(
      Kind,
      MDNode::get(Ctx, {ConstantAsMetadata::get(PoisonValue::get(Object->Ty)),
                        ConstantAsMetadata::get(ConstantInt::get(
                            Type::getInt64Ty(Ctx), Object->Offset))}));
}

void recordDeclaredObjects(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  for (Instruction &I : instructions(F)) {
    if (auto *Transfer = dyn_cast<MemTransferInst>(&I)) {
      recordObject(I, CopyDestinationObjectKind, Transfer->getDest(), DL);
      recordObject(I, CopySourceObjectKind, Transfer->getSource(), DL);
    } else if (const Value *Ptr = getLoadStorePointerOperand(&I)) {
      recordObject(I, AccessObjectKind, Ptr, DL);
    }
  }
}

void forgetDeclaredObjects(Function &F) {
  for (Instruction &I : instructions(F))
    for (StringRef Kind :
         {AccessObjectKind, CopyDestinationObjectKind, CopySourceObjectKind})
      I.setMetadata(Kind, nullptr);
}

/// The object \p Ptr, an operand of \p User (the metadata \p Kind names
/// which), points into: as recorded before the function was simplified,
/// or as its address says now.
static std::optional<DeclaredObject> declaredObjectOf(const Value *Ptr,
                                                      const Instruction *User,
                                                      StringRef Kind,
                                                      const DataLayout &DL) {
  if (const MDNode *N = User ? User->getMetadata(Kind) : nullptr;
      N && N->getNumOperands() == 2)
    if (auto *Object = mdconst::dyn_extract<Constant>(N->getOperand(0)))
      if (auto *Offset = mdconst::dyn_extract<ConstantInt>(N->getOperand(1)))
        return DeclaredObject{Object->getType(), Offset->getSExtValue()};
  if (std::optional<DeclaredObject> Object = declaredObjectAt(Ptr, DL))
    return Object;
  int64_t Offset = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(Ptr, Offset, DL);
  for (const Value *Equal : valuesEqualTo(Base))
    if (std::optional<DeclaredObject> Object = returnedObject(Equal, DL))
      return DeclaredObject{Object->Ty, Object->Offset + Offset};
  return std::nullopt;
}

static Type *arrayElementTypeOf(const Value *Ptr, const DataLayout &DL,
                                const Function *Original = nullptr,
                                unsigned Depth = MaxArrayCallerDepth);

/// Calls \p Visit(offset from Begin, type) for the scalars of an array of
/// \p Element starting at offset 0, within [Begin, End) (at most 64
/// elements: the array's elements are alike).
static void forEachElementScalar(Type *Element, int64_t Begin, int64_t End,
                                 const DataLayout &DL,
                                 function_ref<void(int64_t, Type *)> Visit) {
  int64_t Size = DL.getTypeAllocSize(Element).getFixedValue();
  if (Size <= 0)
    return;
  int64_t First = Begin >= 0 ? Begin / Size : -((-Begin + Size - 1) / Size);
  for (int64_t K = First; K * Size < End && K < First + 64; ++K)
    forEachScalarOf(Element, K * Size, Begin, End, DL, Visit);
}

/// The object \p Ptr points into as declaredObjectOf finds it, or else the
/// local or global it is a constant offset into.
static std::optional<DeclaredObject>
declaredOrBaseObjectOf(const Value *Ptr, const Instruction *User,
                       StringRef Kind, const DataLayout &DL) {
  if (std::optional<DeclaredObject> Object =
          declaredObjectOf(Ptr, User, Kind, DL))
    return Object;
  int64_t Offset = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(Ptr, Offset, DL);
  if (const auto *AI = dyn_cast<AllocaInst>(Base);
      AI && !AI->isArrayAllocation())
    return DeclaredObject{AI->getAllocatedType(), Offset};
  if (const auto *GV = dyn_cast<GlobalVariable>(Base))
    return DeclaredObject{GV->getValueType(), Offset};
  return std::nullopt;
}

/// The ranges of the \p Size bytes from \p Ptr (offsets from \p Ptr) that
/// the declared type of the object it points into leaves as padding; bytes
/// outside the object are none of its padding.
static SmallVector<std::pair<int64_t, int64_t>, 2>
declaredPaddingAt(const Value *Ptr, int64_t Size, const Instruction *User,
                  StringRef Kind, const DataLayout &DL) {
  SmallVector<std::pair<int64_t, int64_t>, 2> Padding;
  std::optional<DeclaredObject> Object =
      declaredOrBaseObjectOf(Ptr, User, Kind, DL);
  if (!Object)
    return Padding;
  forEachPaddingOf(Object->Ty, 0, Object->Offset, Object->Offset + Size, DL,
                   [&](int64_t From, int64_t To) {
                     Padding.emplace_back(From - Object->Offset,
                                          To - Object->Offset);
                   });
  return Padding;
}

/// The \p Size bytes at \p Ptr, which \p Access reads or writes, are padding
/// of the object's declared type (a typed member address, a local or a
/// global).
static bool isDeclaredPadding(const Value *Ptr, int64_t Size,
                              const Instruction *Access, const DataLayout &DL) {
  SmallVector<std::pair<int64_t, int64_t>, 2> Padding =
      declaredPaddingAt(Ptr, Size, Access, AccessObjectKind, DL);
  return coversBytes(Padding, 0, Size);
}

/// Calls \p Visit for the scalars that the declared type of the object
/// \p Base stands for holds in [Begin, End): a local or a global of a
/// struct type, or a field of one, reached from an argument through the
/// callers that pass it (unoptimised code keeps its allocas and member
/// addresses typed).
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
  if (!Arg) {
    // A block indexed as an array of elements elsewhere (malloc'd, then
    // filled with x[i] = ...).
    if (const auto *I = dyn_cast<Instruction>(Base))
      if (Type *Element = arrayElementTypeOf(I, I->getDataLayout(), Original))
        forEachElementScalar(Element, Begin, End, I->getDataLayout(), Visit);
    return;
  }
  if (!Depth)
    return;
  const Function *Called = Original ? Original : Arg->getParent();
  const DataLayout &DL = Called->getDataLayout();
  for (const User *U : Called->users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != Called ||
        Arg->getArgNo() >= Call->arg_size())
      continue;
    const Value *Passed = Call->getArgOperand(Arg->getArgNo());
    if (std::optional<DeclaredObject> Object = declaredObjectAt(Passed, DL)) {
      forEachScalarOf(Object->Ty, -Object->Offset, Begin, End, DL, Visit);
      continue;
    }
    int64_t Offset = 0;
    const Value *CallerBase =
        GetPointerBaseWithConstantOffset(Passed, Offset, DL);
    for (const Value *V : valuesEqualTo(CallerBase))
      forEachDeclaredScalar(V, Begin + Offset, End + Offset, nullptr, Depth - 1,
                            Visit);
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

Type *uniformFloatType(const CopyLayout &Layout) {
  Type *Seen = nullptr;
  for (auto [Offset, Ty] : Layout.Slots) {
    if (!Ty->isFloatingPointTy())
      continue;
    if (Seen && Seen != Ty)
      return nullptr;
    Seen = Ty;
  }
  return Seen;
}

bool copiesOnlyIntegers(const CopyLayout &Layout,
                        std::optional<uint64_t> Length, const DataLayout &DL) {
  // Smaller than any floating-point type (half is two bytes): an empty
  // struct copied as its one byte (Eigen's rank-0 DSizes), a bool.
  if (Length && *Length < 2)
    return true;
  if (Layout.Slots.empty() || any_of(Layout.Slots, [](const auto &S) {
        return !S.second->isIntegerTy();
      }))
    return false;
  // An array copied with a length known at run time: its elements are
  // alike, and integer accesses of them say what they are.
  if (!Length)
    return true;
  // A fixed-size copy: every byte must be an integer access's, or padding
  // of a declared type, which holds no value.
  SmallVector<std::pair<int64_t, int64_t>, 8> Ranges(Layout.Padding.begin(),
                                                     Layout.Padding.end());
  for (auto [Offset, Ty] : Layout.Slots)
    Ranges.emplace_back(Offset, Offset + int64_t(DL.getTypeStoreSize(Ty)));
  return coversBytes(Ranges, 0, int64_t(*Length));
}

std::string describeUntypedCopy(std::optional<uint64_t> Length) {
  std::string Bytes =
      Length ? "the " + std::to_string(*Length) + " bytes" : "the memory";
  return "cannot tell what " + Bytes +
         " copied here hold: floating-point values, whose derivatives the "
         "copy must move back, or integers and addresses, which must not be "
         "added. Nothing says (no type-based alias tag, no access of the "
         "same memory here, in the functions it is passed to or in their "
         "callers, no declared type of the objects). Copy with a typed "
         "assignment (*y = *x, std::copy of typed elements), access the "
         "memory as its type once in the differentiated code, say what it "
         "holds with __enzyme_double(ptr, bytes) (or __enzyme_float, "
         "__enzyme_integer, __enzyme_pointer) where it is made, build with "
         "-fstrict-aliasing (the default at -O1 and up), or give the "
         "function a custom derivative";
}

static bool isPointerTypeName(StringRef Name);

/// For \p Ptr, a pointer that steps through arrays (a phi or select of
/// array starts and of itself advanced by constant offsets), the type of
/// the elements that it, the arrays and the pointers between them are
/// indexed with elsewhere (`getelementptr T, ptr %a, i64 %i`), when they
/// agree and the steps are whole elements; nullptr otherwise.
static Type *arrayElementTypeOf(const Value *Ptr, const DataLayout &DL,
                                const Function *Original, unsigned Depth) {
  // The pointers that walk the same arrays from here on (double buffers
  // swapped by phis), then all they come from.
  SmallVector<const Value *, 8> Work = {Ptr};
  for (unsigned I = 0; I < Work.size() && Work.size() < 16; ++I)
    for (const User *U : Work[I]->users())
      if ((isa<PHINode>(U) || isa<SelectInst>(U)) && !is_contained(Work, U))
        Work.push_back(U);
  SmallPtrSet<const Value *, 8> Seen;
  SmallVector<int64_t, 4> Steps;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    // Enough pointers seen: what they say stands for the rest.
    if (Seen.size() >= 64)
      break;
    if (!Seen.insert(V).second)
      continue;
    if (const auto *Phi = dyn_cast<PHINode>(V)) {
      append_range(Work, Phi->incoming_values());
      continue;
    }
    if (const auto *Select = dyn_cast<SelectInst>(V)) {
      Work.append({Select->getTrueValue(), Select->getFalseValue()});
      continue;
    }

    int64_t Offset = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(V, Offset, DL);
    if (Base != V) {
      Steps.push_back(Offset);
      Work.push_back(Base);
      continue;
    }
  }
  Type *Element = nullptr;
  auto Merge = [&](Type *Indexed) {
    if (Element && Element != Indexed)
      return false;
    Element = Indexed;
    return true;
  };
  // An array an argument points into: what the callers pass says.
  for (const Value *Start : Seen) {
    const auto *Arg = dyn_cast<Argument>(Start);
    if (!Arg || !Depth)
      continue;
    const Function *Called =
        Original && Original->arg_size() == Arg->getParent()->arg_size()
            ? Original
            : Arg->getParent();
    for (const User *U : Called->users()) {
      const auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != Called ||
          Arg->getArgNo() >= Call->arg_size())
        continue;
      if (Type *Passed = arrayElementTypeOf(
              Call->getArgOperand(Arg->getArgNo()), DL, nullptr, Depth - 1);
          Passed && !Merge(Passed))
        return nullptr;
    }
  }
  for (const Value *Start : Seen) {
    Type *Indexed = nullptr;
    for (const User *U : Start->users()) {
      // Byte offsets (`getelementptr i8`) say nothing.
      const auto *GEP = dyn_cast<GetElementPtrInst>(U);
      if (!GEP || GEP->getPointerOperand() != Start ||
          GEP->hasAllConstantIndices() || !declaredObjectAt(GEP, DL))
        continue;
      if (Indexed && Indexed != GEP->getSourceElementType())
        return nullptr;
      Indexed = GEP->getSourceElementType();
    }
    if (!Indexed)
      continue; // Says nothing (the block being moved out of, say).
    if (!Merge(Indexed))
      return nullptr;
  }
  if (!Element || !Element->isSized())
    return nullptr;
  int64_t Size = DL.getTypeAllocSize(Element).getFixedValue();
  if (!Size || any_of(Steps, [&](int64_t Step) { return Step % Size; }))
    return nullptr;
  return Element;
}

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

/// Gives \p Layout's offsets that no access types, or that only an integer
/// access of the same size does, the pointer or float that \p Declared (the
/// declared types of the objects copied) puts there.
static void
fillFromDeclaredScalars(CopyLayout &Layout,
                        ArrayRef<std::pair<int64_t, Type *>> Declared,
                        const DataLayout &DL) {
  for (auto [At, DeclaredTy] : Declared) {
    int64_t Size = DL.getTypeStoreSize(DeclaredTy);
    bool Typed = false, Overlaps = false;
    SmallVector<Type **, 2> Integers;
    for (auto &[Offset, Ty] : Layout.Slots) {
      int64_t SlotSize = DL.getTypeStoreSize(Ty);
      if (Offset + SlotSize <= At || At + Size <= Offset)
        continue;
      if (Offset == At && SlotSize == Size && Ty->isIntegerTy())
        Integers.push_back(&Ty);
      else if (Offset == At && SlotSize == Size)
        Typed = true;
      else
        Overlaps = true;
    }
    if (Typed || Overlaps)
      continue;
    for (Type **Ty : Integers)
      *Ty = DeclaredTy;
    if (Integers.empty())
      Layout.Slots.emplace_back(At, DeclaredTy);
    Layout.HasPointers |= DeclaredTy->isPointerTy();
    Layout.HasFloats |= DeclaredTy->isFloatingPointTy();
  }
}

CopyLayout analyzeCopyLayout(Value *Dst, Value *Src, Function &F,
                             const Function *Original,
                             std::optional<uint64_t> Length,
                             const Instruction *Copy, AccessIndex *Index) {
  const DataLayout &DL = F.getDataLayout();
  std::optional<AccessIndex> OwnIndex;
  if (!Index)
    Index = &OwnIndex.emplace();
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
    forEachAccessOf(
        Base, EndOffset, EndOffset + Extent, F, Original, {},
        MaxAccessSearchDepth, *Index,
        [&](int64_t Offset, Instruction &I) {
          Type *Ty = getLoadStoreType(&I);
          if (Ty->isIntegerTy() && movesAddress(I))
            Ty = PointerType::getUnqual(I.getContext());
          Add(Offset, Ty);
        },
        Add);
  }
  auto Kind = [&](const Value *End) {
    return End == Dst ? CopyDestinationObjectKind : CopySourceObjectKind;
  };
  // The scalars the declared types of the objects copied hold.
  auto ForEachDeclaredScalar = [&](Value *End,
                                   function_ref<void(int64_t, Type *)> Visit) {
    if (std::optional<DeclaredObject> Object =
            declaredObjectOf(End, Copy, Kind(End), DL)) {
      forEachScalarOf(Object->Ty, -Object->Offset, 0, Extent, DL, Visit);
      return;
    }
    int64_t EndOffset = 0;
    Value *Base = GetPointerBaseWithConstantOffset(End, EndOffset, DL);
    for (const Value *Equal : valuesEqualTo(Base))
      forEachDeclaredScalar(Equal, EndOffset, EndOffset + Extent, Original,
                            MaxDeclaredTypeSearchDepth, Visit);
  };
  if (Layout.HasPointers || Layout.HasFloats) {
    // Accesses may show some fields only (the others are read deeper in
    // callees than the search goes), and integer accesses beside them may
    // move pointers or floats as integers (unoptimised code copies a
    // thrust::device_ptr as an i64): where a declared type has a pointer or
    // a float at an offset that no access types, the slot holds it, so
    // that a pointer's shadow is copied along and a float's adjoint moved.
    SmallVector<std::pair<int64_t, Type *>, 8> Declared;
    for (Value *End : {Dst, Src})
      ForEachDeclaredScalar(End, [&](int64_t Offset, Type *Ty) {
        if (Ty->isPointerTy() || Ty->isFloatingPointTy())
          Declared.emplace_back(Offset, Ty);
      });
    fillFromDeclaredScalars(Layout, Declared, DL);
    return Layout;
  }
  // No access says (or only integer accesses do, which may be pointers or
  // floats moved as integers): the declared types of the objects copied may.
  for (Value *End : {Dst, Src}) {
    ForEachDeclaredScalar(End, Add);
    if (Length)
      append_range(Layout.Padding,
                   declaredPaddingAt(End, Extent, Copy, Kind(End), DL));
  }
  if (Layout.HasPointers || Layout.HasFloats)
    return Layout;
  // A copy that walks an array element by element (a vector relocating its
  // elements into a new block): the element type that the arrays are
  // indexed with elsewhere.
  if (Type *Element = copiedElementType(Dst, Src, Original))
    forEachElementScalar(Element, 0, Extent, DL, Add);
  return Layout;
}

/// The value \p V is a copy of, at the same address: through the stack
/// slots and the calls that return an argument unchanged of unoptimised
/// code, but through no offset (an array member's address is not its
/// struct's).
static const Value *sameAddressSource(const Value *V) {
  return followStoredCopies(
      V, [](const Value *V) { return V->stripPointerCasts(); });
}

/// The data layout of the function \p V is in, when it is an instruction or
/// an argument.
static const DataLayout *dataLayoutAt(const Value *V) {
  if (const auto *I = dyn_cast<Instruction>(V))
    return &I->getDataLayout();
  if (const auto *Arg = dyn_cast<Argument>(V))
    return &Arg->getParent()->getDataLayout();
  return nullptr;
}

Type *copiedElementType(Value *Dst, Value *Src, const Function *Original) {
  Type *Element = nullptr;
  for (Value *End : {Dst, Src}) {
    const DataLayout *DL = dataLayoutAt(End);
    if (!DL)
      continue;
    // Unoptimised code indexes another load of the slot that holds the
    // pointer, or the argument it was passed as; or the end is an element
    // it indexed (`__result - __n` of std::copy_backward).
    const Value *Source = sameAddressSource(End);
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(Source);
        GEP && GEP->getNumIndices() == 1 && !GEP->hasAllConstantIndices() &&
        GEP->getSourceElementType()->isSized() &&
        !GEP->getSourceElementType()->isIntegerTy(8)) {
      if (Element && Element != GEP->getSourceElementType())
        return nullptr;
      Element = GEP->getSourceElementType();
    }
    for (const Value *Equal : valuesEqualTo(Source)) {
      Type *Indexed = arrayElementTypeOf(Equal, *DL, Original);
      if (!Indexed)
        continue;
      if (Element && Element != Indexed)
        return nullptr;
      Element = Indexed;
    }
  }
  return Element;
}

/// The size of the local or global \p V is the start of (through slots,
/// pass-through calls and, \p Depth deep, the callers of its function),
/// when every way agrees.
static std::optional<uint64_t>
objectSizeAt(const Value *V, const DataLayout &DL, unsigned Depth) {
  int64_t Offset = 0;
  const Value *Base =
      GetPointerBaseWithConstantOffset(sameAddressSource(V), Offset, DL);
  if (Offset)
    return std::nullopt;
  if (const auto *AI = dyn_cast<AllocaInst>(Base))
    return AI->isArrayAllocation()
               ? std::nullopt
               : std::optional<uint64_t>(
                     DL.getTypeAllocSize(AI->getAllocatedType()));
  if (const auto *GV = dyn_cast<GlobalVariable>(Base))
    return GV->getValueType()->isSized()
               ? std::optional<uint64_t>(
                     DL.getTypeAllocSize(GV->getValueType()))
               : std::nullopt;
  const auto *Arg = dyn_cast<Argument>(Base);
  if (!Arg || !Depth)
    return std::nullopt;
  std::optional<uint64_t> Size;
  for (const User *U : Arg->getParent()->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != Arg->getParent() ||
        Arg->getArgNo() >= Call->arg_size())
      return std::nullopt;
    std::optional<uint64_t> Passed =
        objectSizeAt(Call->getArgOperand(Arg->getArgNo()), DL, Depth - 1);
    if (!Passed || (Size && *Size != *Passed))
      return std::nullopt;
    Size = Passed;
  }
  return Size;
}

std::optional<uint64_t> copiedObjectSize(Value *Dst, Value *Src) {
  std::optional<uint64_t> Size;
  for (Value *End : {Dst, Src}) {
    const DataLayout *DL = dataLayoutAt(End);
    std::optional<uint64_t> Object =
        DL ? objectSizeAt(End, *DL, MaxArrayCallerDepth) : std::nullopt;
    if (Object && Size && *Object != *Size)
      return std::nullopt;
    if (Object)
      Size = Object;
  }
  return Size;
}

/// Clang's pointer-type TBAA names: "p<depth> <pointee>".
static bool isPointerTypeName(StringRef Name) {
  if (!Name.consume_front("p"))
    return false;
  size_t Digits = Name.find_first_not_of("0123456789");
  return Digits > 0 && Digits != StringRef::npos && Name[Digits] == ' ';
}

/// \p U is a call of assembly or of a warp shuffle, which move bits of any
/// type.
static bool passesBitsOn(const User &U) {
  const auto *Call = dyn_cast<CallBase>(&U);
  if (!Call)
    return false;
  const Function *Callee = Call->getCalledFunction();
  return Call->isInlineAsm() ||
         (Callee && Callee->getName().starts_with("llvm.nvvm.shfl."));
}

/// The one scalar type that every scalar of \p Object, a local that is no
/// union (whose other members may be integers), is of, or nullptr.
static Type *uniformScalarTypeOf(const Value *Object, const DataLayout &DL) {
  const auto *Local = dyn_cast<AllocaInst>(Object);
  if (!Local || !Local->getAllocatedType()->isSized() ||
      holdsUnion(Local->getAllocatedType()))
    return nullptr;
  Type *Ty = Local->getAllocatedType();
  Type *Uniform = nullptr;
  bool Mixed = false;
  forEachScalarOf(Ty, 0, 0, DL.getTypeAllocSize(Ty), DL,
                  [&](int64_t, Type *Scalar) {
                    Mixed |= Uniform && Uniform != Scalar;
                    Uniform = Scalar;
                  });
  return Mixed ? nullptr : Uniform;
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
  /// only moved (a constant, a load, stored, reinterpreted, shuffled between
  /// lanes or passed to assembly, as CUB moves a double's words) says
  /// nothing.
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
      else if (!isa<StoreInst>(U) && !passesBitsOn(*U))
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
                                            bool OnlyMoved,
                                            AccessIndex *Index) {
  Function &F = *Accesses.front()->getFunction();
  const DataLayout &DL = F.getDataLayout();
  // A local whose scalars are all of one float type holds floats in all its
  // bytes, whatever the pointer to integers that reads them (unoptimised
  // code reads a double's words so to pass them on, as CUB's shuffles do).
  for (const Instruction *Access : Accesses)
    if (Type *Ty = uniformScalarTypeOf(
            getUnderlyingObject(getLoadStorePointerOperand(Access)), DL);
        Ty && Ty->isFloatingPointTy())
      return {IntegerAccessContents::Floats, Ty};

  ContentEvidence Evidence;
  for (const Instruction *Access : Accesses)
    if (!Evidence.addTag(*Access) && !OnlyMoved)
      Evidence.addIntegerUse(*Access);
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // The other accesses of the same bytes, here and in the callees and
  // callers the memory travels through.
  std::optional<AccessIndex> OwnIndex;
  if (!Index)
    Index = &OwnIndex.emplace();
  for (Instruction *Access : Accesses) {
    int64_t Begin = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(
        getLoadStorePointerOperand(Access), Begin, DL);
    int64_t End = Begin + DL.getTypeStoreSize(getLoadStoreType(Access));
    forEachAccessOf(
        Base, Begin, End, F, Original, Accesses, MaxAccessSearchDepth, *Index,
        [&](int64_t, Instruction &I) {
          Type *Ty = getLoadStoreType(&I);
          if (!Ty->isIntegerTy())
            Evidence.addType(Ty);
          else if (!Evidence.addTag(I))
            Evidence.addIntegerUse(I);
        },
        [&](int64_t, Type *Ty) { Evidence.addType(Ty); });
  }
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // The declared types of the objects (unoptimised code keeps its locals
  // typed): an object passed down a chain of constructors that each touch
  // only part of it, say.
  for (Instruction *Access : Accesses) {
    const Value *Ptr = getLoadStorePointerOperand(Access);
    int64_t Size = DL.getTypeStoreSize(getLoadStoreType(Access));
    if (std::optional<DeclaredObject> Object =
            declaredObjectOf(Ptr, Access, AccessObjectKind, DL)) {
      forEachScalarOf(Object->Ty, -Object->Offset, 0, Size, DL,
                      [&](int64_t, Type *Ty) { Evidence.addType(Ty); });
      continue;
    }
    int64_t Begin = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(Ptr, Begin, DL);
    int64_t End = Begin + Size;
    forEachDeclaredScalar(Base, Begin, End, Original,
                          MaxDeclaredTypeSearchDepth,
                          [&](int64_t, Type *Ty) { Evidence.addType(Ty); });
  }
  if (Evidence.result().What != IntegerAccessContents::Unknown)
    return Evidence.result();

  // Bytes that the declared type leaves as padding (CUB shuffles a
  // (float, long) pair word by word, the padding word too) hold no float:
  // a float written there could only be the padding of another object.
  if (all_of(Accesses, [&](Instruction *Access) {
        return isDeclaredPadding(getLoadStorePointerOperand(Access),
                                 DL.getTypeStoreSize(getLoadStoreType(Access)),
                                 Access, DL);
      }))
    return {IntegerAccessContents::Integers};

  // Element accesses of the same objects at offsets only known at run time
  // (x[i] beside a copy of x[0]).
  for (Instruction *Access : Accesses)
    if (Type *Ty =
            inferFloatElementType(getLoadStorePointerOperand(Access), nullptr))
      return {IntegerAccessContents::Floats, Ty};
  return {};
}

bool copyMayMoveFloats(const MemTransferInst &Copy, const CopyLayout &Layout,
                       std::optional<uint64_t> Length) {
  auto &Mutable = const_cast<MemTransferInst &>(Copy);
  if (inferFloatElementType(Mutable.getDest(), Mutable.getSource(), &Copy) ||
      Layout.HasFloats || uniformFloatType(Layout))
    return true;
  return !Layout.HasPointers &&
         !copiesOnlyIntegers(Layout, Length, Copy.getDataLayout());
}

} // namespace enzyme
