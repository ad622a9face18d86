//===- LaneResults.cpp - The result shapes of vector mode -----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Plugin/LaneResults.h"

#include "Core/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace enzyme {

/// Appends the scalars of \p V, in memory order.
static void flatten(IRBuilder<> &B, Value *V, SmallVectorImpl<Value *> &Out) {
  Type *Ty = V->getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      flatten(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      flatten(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      flatten(B, B.CreateExtractElement(V, I), Out);
  } else {
    Out.push_back(V);
  }
}

/// The number of scalars of \p Ty.
static uint64_t countScalars(Type *Ty) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    uint64_t N = 0;
    for (Type *E : ST->elements())
      N += countScalars(E);
    return N;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return AT->getNumElements() * countScalars(AT->getElementType());
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    return VT->getNumElements() * countScalars(VT->getElementType());
  return 1;
}

/// A value of \p Ty built from the scalars of \p Scalars at \p Next on, or
/// nullptr when one of them does not convert to its place.
static Value *build(IRBuilder<> &B, Type *Ty, ArrayRef<Value *> Scalars,
                    size_t &Next) {
  if (isa<StructType>(Ty) || isa<ArrayType>(Ty) || isa<FixedVectorType>(Ty)) {
    Value *Result = PoisonValue::get(Ty);
    unsigned N = isa<StructType>(Ty) ? cast<StructType>(Ty)->getNumElements()
                 : isa<ArrayType>(Ty)
                     ? cast<ArrayType>(Ty)->getNumElements()
                     : cast<FixedVectorType>(Ty)->getNumElements();
    for (unsigned I = 0; I < N; ++I) {
      Type *ElemTy =
          isa<StructType>(Ty)  ? cast<StructType>(Ty)->getElementType(I)
          : isa<ArrayType>(Ty) ? cast<ArrayType>(Ty)->getElementType()
                               : cast<FixedVectorType>(Ty)->getElementType();
      Value *Elem = build(B, ElemTy, Scalars, Next);
      if (!Elem)
        return nullptr;
      Result = isa<FixedVectorType>(Ty) ? B.CreateInsertElement(Result, Elem, I)
                                        : B.CreateInsertValue(Result, Elem, I);
    }
    return Result;
  }
  Value *V = Scalars[Next++];
  if (V->getType() == Ty)
    return V;
  if (V->getType()->isFloatingPointTy() && Ty->isFloatingPointTy())
    return B.CreateFPCast(V, Ty);
  if (V->getType()->isPointerTy() && Ty->isPointerTy())
    return B.CreatePointerBitCastOrAddrSpaceCast(V, Ty);
  return nullptr;
}

Value *convertLaneResults(IRBuilder<> &B, ArrayRef<Value *> Values, Type *To,
                          const DiffRequest &Request, const Twine &What) {
  if (To->isVoidTy())
    return nullptr;
  SmallVector<Value *, 8> Scalars;
  for (Value *V : Values)
    flatten(B, V, Scalars);
  size_t Next = 0;
  if (countScalars(To) == Scalars.size())
    if (Value *Result = build(B, To, Scalars, Next))
      return Result;

  std::string Described;
  raw_string_ostream OS(Described);
  OS << Scalars.size() << " values (";
  for (auto [I, V] : enumerate(Scalars))
    OS << (I ? ", " : "") << displayType(V->getType());
  OS << ")";
  reportError(
      *Request.Call,
      Twine(requestEntryName(Request.Mode)) + " is declared to return '" +
          displayType(To) + "', which cannot hold " + What + " of '" +
          displayName(Request.Fn->getName()) + "' with 'enzyme_width, " +
          Twine(Request.Width) + "': " + Described +
          "; declare a struct with one field per value, in order "
          "(e.g. struct { double d[" +
          Twine(Request.Width) + "]; })");
  return nullptr;
}

} // namespace enzyme
