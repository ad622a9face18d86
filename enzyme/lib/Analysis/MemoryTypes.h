//===- MemoryTypes.h - What kind of values memory holds ---------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A small type analysis for memory that is copied without a type: memcpy,
/// and integer loads/stores that optimised code uses to move a double
/// (`load i64` / `store i64`). Evidence comes from TBAA tags and from how
/// the same memory is loaded and stored elsewhere.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_MEMORYTYPES_H
#define ENZYME_ANALYSIS_MEMORYTYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace llvm {
class AllocaInst;
class CallBase;
class DataLayout;
class Function;
class Instruction;
class MemTransferInst;
class Module;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

class AccessIndex;

/// \p Ty is a C or C++ union, whose IR type shows one of its members only.
bool isUnion(const llvm::Type *Ty);
/// \p Ty is a union or holds one (in a struct's fields or an array's
/// elements).
bool holdsUnion(const llvm::Type *Ty);

/// \p Slot, when it is a local that one store fills and that is otherwise
/// only loaded (unoptimised code keeps every variable, pointer arguments
/// included, in such a slot); nullptr otherwise.
const llvm::AllocaInst *singleStoreSlot(const llvm::Value *Slot);

/// Where the pointer \p V comes from in unoptimised code: its object,
/// followed back through stack slots that one store fills and through
/// calls of functions that return an argument unchanged (Thrust's
/// raw_pointer_cast, std::move), as far as they go.
const llvm::Value *forwardedSource(const llvm::Value *V);

/// The floating-point type of the values that memory at \p Dst and \p Src
/// holds, when something says so; nullptr otherwise. \p Access, when given,
/// is the copying instruction, whose TBAA tag is checked first.
llvm::Type *inferFloatElementType(llvm::Value *Dst, llvm::Value *Src,
                                  const llvm::Instruction *Access = nullptr);

/// What the memory a copy moves holds, offset by offset, as the function's
/// loads and stores at constant offsets of the same objects show it.
struct CopyLayout {
  /// (offset from the start of the copy, type) of every access seen.
  llvm::SmallVector<std::pair<int64_t, llvm::Type *>, 8> Slots;
  /// Byte ranges (from the start of the copy) that the declared type of
  /// either object leaves as padding: they hold no value.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 2> Padding;
  bool HasPointers = false;
  bool HasFloats = false;
  /// The floating-point type of the elements, when the copy moves floats
  /// and no pointers (copyElementType).
  llvm::Type *FloatTy = nullptr;

  /// The slots in [0, Length) whose type satisfies \p Want, one per offset.
  llvm::SmallVector<std::pair<int64_t, llvm::Type *>, 8>
  slotsWithin(uint64_t Length,
              llvm::function_ref<bool(llvm::Type *)> Want) const;
};

/// The one floating-point type that the accesses in \p Layout use; nullptr
/// when there is none, or more than one.
llvm::Type *uniformFloatType(const CopyLayout &Layout);

/// Every byte of a copy of \p Length bytes (of an array of elements, when
/// unknown) holds an integer, as \p Layout shows, or the copy is too small
/// to hold a float: it moves no derivative.
bool copiesOnlyIntegers(const CopyLayout &Layout,
                        std::optional<uint64_t> Length,
                        const llvm::DataLayout &DL);

/// The error for a copy of \p Length bytes (unknown: std::nullopt) whose
/// contents nothing types, in reverse mode, where floats must move their
/// derivatives back and integers and addresses must not.
std::string describeUntypedCopy(std::optional<uint64_t> Length);

/// The layout of the bytes copied from \p Src to \p Dst in \p F, as the
/// accesses in \p F, in the callees the memory is passed to, and in the
/// callers of \p Original (the function \p F copies) show it, or else
/// as the declared types of the objects do. \p Length, when known, bounds
/// the bytes looked at. \p Copy, the copying instruction, is asked first:
/// clang's `!tbaa.struct` on a struct copy names every field. \p Index,
/// when given, holds the accesses of the functions searched across calls.
CopyLayout analyzeCopyLayout(llvm::Value *Dst, llvm::Value *Src,
                             llvm::Function &F,
                             const llvm::Function *Original = nullptr,
                             std::optional<uint64_t> Length = std::nullopt,
                             const llvm::Instruction *Copy = nullptr,
                             AccessIndex *Index = nullptr);

/// The type of the elements that the program indexes the ends of a copy
/// from \p Src to \p Dst with elsewhere (`getelementptr T, ptr %a, i64 %i`,
/// in the function, through the stack slots and pass-through calls of
/// unoptimised code, and in the callers of \p Original), when the indexings
/// agree; nullptr otherwise.
llvm::Type *copiedElementType(llvm::Value *Dst, llvm::Value *Src,
                              const llvm::Function *Original = nullptr);

/// The size of the object (a local or a global, not an array of them) that
/// an end of a copy from \p Src to \p Dst starts, through the stack slots
/// and pass-through calls of unoptimised code and the callers that pass it,
/// when all agree: a copy moves at most that many bytes. std::nullopt when
/// no end says, or the ends disagree.
std::optional<uint64_t> copiedObjectSize(llvm::Value *Dst, llvm::Value *Src);

/// The copy \p Copy, of \p Length bytes (std::nullopt: unknown) laid out as
/// \p Layout shows, may move floating-point values: something types its
/// bytes as floats, or nothing says they are integers and addresses.
bool copyMayMoveFloats(const llvm::MemTransferInst &Copy,
                       const CopyLayout &Layout,
                       std::optional<uint64_t> Length);

/// What an integer-typed load or store really moves. Optimised code copies
/// and clears doubles and pointers as integers: a one-double memcpy becomes
/// `load i64` + `store i64`, a one-double memset `store i64 0`.
struct IntegerAccessContents {
  enum Kind { Unknown, Integers, Pointers, Floats } What = Unknown;
  /// For Floats, the element type.
  llvm::Type *FloatTy = nullptr;
};

/// What the integer accesses \p Accesses (one load or store, or the load and
/// the store of an integer copy) move: their TBAA tags and how their values
/// are produced and used first, then the same for the other accesses of the
/// same bytes (in the function, in callees the memory is passed to, and in
/// callers of \p Original, the function the accesses' function copies, when
/// the memory is an argument), then the types of the underlying objects'
/// element accesses. Unknown when nothing says. With \p OnlyMoved the
/// accesses are known to only move bits between each other (integer
/// shuffles, phis and selects), so their own values say nothing. \p Index,
/// when given, holds the accesses of the functions searched across calls.
IntegerAccessContents
classifyIntegerAccess(llvm::ArrayRef<llvm::Instruction *> Accesses,
                      const llvm::Function *Original = nullptr,
                      bool OnlyMoved = false, AccessIndex *Index = nullptr);

/// Records on the loads, stores and memory transfers of \p F the declared
/// type of the object each address points into (a typed member or element
/// address: `getelementptr %T, ptr %p, 0, i`), before simplification folds
/// the address (a member at offset 0 becomes %p itself). The analyses
/// above read it; forgetDeclaredObjects removes it from generated code.
void recordDeclaredObjects(llvm::Function &F);
void forgetDeclaredObjects(llvm::Function &F);

/// For a call of a memory annotation, the type of the elements it says
/// the memory at its first argument holds: `__enzyme_double(p, bytes)`,
/// `__enzyme_float`, `__enzyme_integer`, `__enzyme_pointer`; the
/// second argument, when given, is the number of bytes (without it, the
/// object from p on). nullptr for any other call.
llvm::Type *annotatedType(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_MEMORYTYPES_H
