//===- CopyRecords.cpp - Layouts of copies of values of several kinds -----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CopyRecords.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace enzyme {

/// The kind of field a scalar of type \p Ty is, or none (an x86 long
/// double, a vector: the run-time moves no such adjoints).
static std::optional<CopyRecord::Contents> contentsOf(Type *Ty) {
  if (Ty->isPointerTy())
    return CopyRecord::Pointers;
  if (Ty->isFloatTy())
    return CopyRecord::Floats;
  if (Ty->isDoubleTy())
    return CopyRecord::Doubles;
  if (Ty->isIntegerTy())
    return CopyRecord::Integers;
  return std::nullopt;
}

std::optional<CopyRecord> copyRecordOf(const CopyLayout &Layout,
                                       std::optional<uint64_t> Length,
                                       Type *Element,
                                       std::optional<uint64_t> ObjectSize,
                                       const DataLayout &DL) {
  CopyRecord Record;
  if (Element && Element->isSized())
    Record.Stride = DL.getTypeAllocSize(Element).getFixedValue();
  // The copy holds whole elements, or it is one record of its own, or of
  // the one object it copies from or into (at most).
  if (Length && (!Record.Stride || *Length % Record.Stride))
    Record.Stride = *Length;
  if (!Record.Stride && ObjectSize)
    Record.Stride = *ObjectSize;
  if (!Record.Stride)
    return std::nullopt;
  uint64_t Stride = Record.Stride;
  auto Place = [&](int64_t Offset, uint64_t Size, CopyRecord::Contents What) {
    if (Offset < 0 || (Length && uint64_t(Offset) + Size > *Length))
      return;
    uint64_t Within = uint64_t(Offset) % Stride;
    if (Within + Size > Stride)
      return;
    Record.Fields.push_back({Within, Size, What});
  };
  for (auto [Offset, Ty] : Layout.Slots)
    if (std::optional<CopyRecord::Contents> What = contentsOf(Ty))
      Place(Offset, DL.getTypeStoreSize(Ty), *What);
  // Padding holds no value: like an integer, nothing moves through it.
  for (auto [From, To] : Layout.Padding)
    if (To > From)
      Place(From, To - From, CopyRecord::Integers);
  // One field per place; where two places of another size or kind overlap
  // (a union's members, accesses that disagree), neither says.
  auto &Fields = Record.Fields;
  sort(Fields, [](const CopyRecord::Field &A, const CopyRecord::Field &B) {
    return std::tie(A.Offset, A.Size, A.What) <
           std::tie(B.Offset, B.Size, B.What);
  });
  Fields.erase(
      unique(Fields,
             [](const CopyRecord::Field &A, const CopyRecord::Field &B) {
               return A.Offset == B.Offset && A.Size == B.Size &&
                      A.What == B.What;
             }),
      Fields.end());
  SmallVector<bool, 8> Overlapped(Fields.size(), false);
  for (size_t I = 0; I < Fields.size(); ++I)
    for (size_t J = I + 1; J < Fields.size() &&
                           Fields[J].Offset < Fields[I].Offset + Fields[I].Size;
         ++J)
      Overlapped[I] = Overlapped[J] = true;
  CopyRecord Kept;
  Kept.Stride = Stride;
  for (auto [Field, Overlaps] : zip(Fields, Overlapped))
    if (!Overlaps)
      Kept.Fields.push_back(Field);
  if (none_of(Kept.Fields, [](const CopyRecord::Field &F) {
        return F.What != CopyRecord::Integers;
      }))
    return std::nullopt;
  return Kept;
}

bool recordHoldsMovedValues(const CopyRecord &Record, const CopyLayout &Layout,
                            const DataLayout &DL) {
  return all_of(Layout.Slots, [&](const std::pair<int64_t, Type *> &Slot) {
    int64_t Offset = Slot.first;
    Type *Ty = Slot.second;
    std::optional<CopyRecord::Contents> What = contentsOf(Ty);
    if (What == CopyRecord::Integers)
      return true;
    if (!What || Offset < 0)
      return false;
    uint64_t Within = uint64_t(Offset) % Record.Stride;
    return any_of(Record.Fields, [&](const CopyRecord::Field &F) {
      return F.Offset == Within && F.What == *What &&
             F.Size == DL.getTypeStoreSize(Ty);
    });
  });
}

Type *CopyRecord::typeOf(Contents What, LLVMContext &Ctx) {
  switch (What) {
  case Floats:
    return Type::getFloatTy(Ctx);
  case Doubles:
    return Type::getDoubleTy(Ctx);
  case Pointers:
    return PointerType::getUnqual(Ctx);
  case Integers:
    return nullptr;
  }
  return nullptr;
}

} // namespace enzyme
