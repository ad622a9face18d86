//===- ActivityAnalysis.h - Which values carry derivatives -----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides, for one function and one activity signature, which values carry
/// derivatives. Two kinds of activity:
///  - an *active value* is a floating-point (or aggregate-of-float) SSA value
///    that depends on an active input; it has an adjoint in the reverse pass;
///  - a *shadowed pointer* points to memory that may hold derivatives; it has
///    a shadow pointer, to memory of the same layout holding the adjoints.
/// The analysis over-approximates: treating an inactive value as active is
/// slower, never wrong, except that a value whose derivative reaches
/// nothing is inactive even though it depends on an active input (its
/// zero adjoint times an infinite partial would be NaN). Integers never carry
/// derivatives. Memory that receives derivatives gets a shadow even when the
/// pointer to it comes from a call whose arguments carry none (a helper that
/// allocates).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_ACTIVITYANALYSIS_H
#define ENZYME_ANALYSIS_ACTIVITYANALYSIS_H

#include "Analysis/ParameterWrites.h"
#include "Core/Activity.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>

namespace llvm {
class Argument;
class AtomicRMWInst;
class CallBase;
class DataLayout;
class Function;
class Instruction;
class LoadInst;
class ReturnInst;
class MemTransferInst;
class Type;
class Value;
} // namespace llvm

namespace enzyme {

/// True for types whose values can carry a derivative: floating point,
/// vectors of it, and aggregates containing it.
bool isDifferentiableType(llvm::Type *Ty);

/// True for types whose values can hold addresses, and so a shadow:
/// pointers, vectors of them, and aggregates containing them (a small
/// struct returned in registers, `{ptr, ptr}`). The shadow of such a value
/// has its type, with shadows in place of the pointers.
bool carriesPointers(llvm::Type *Ty);

/// \p RMW adds (or subtracts) a floating-point value: CUDA's atomicAdd.
bool isAtomicFloatAdd(const llvm::AtomicRMWInst &RMW);

/// The error for an atomic read-modify-write or compare-exchange \p I that
/// accesses memory with derivatives (\p OnShadowedMemory) or whose result
/// carries one; empty when \p I is integer arithmetic (a reference count,
/// as std::shared_ptr keeps one next to the data), which moves none, or a
/// floating-point addition, which the generators differentiate.
std::string describeAtomicWithDerivative(const llvm::Instruction &I,
                                         bool OnShadowedMemory,
                                         bool ResultCarries);

/// The error for a pointer \p I that chooses between memory with
/// derivatives and \p Choice, which has none.
std::string describeUnshadowedChoice(const llvm::Value &Choice);

/// The error for storing a pointer to memory without derivatives into
/// memory whose readers take the shadows of the pointers they load, where
/// no scratch shadow can stand in (device code).
std::string describeUnshadowedPointerStored();

/// The error for a function \p F whose caller needs the shadow of the
/// pointer it returns, which has none.
std::string returnedWithoutShadow(const llvm::Function &F);

/// The error for \p Copy, in \p F (the prepared copy of \p Original), from
/// memory with derivatives into memory without (a global without shadow,
/// an enzyme_const argument's memory), when it may move floats, whose
/// derivatives would be lost; empty when it moves integers and addresses
/// only, or writes an inactive global.
std::string describeCopyWithoutShadow(llvm::MemTransferInst &Copy,
                                      llvm::Function &F,
                                      const llvm::Function *Original);

/// The error for lostPointerBits's \p Source.
std::string describeLostPointerBits(const llvm::Value &Source);
/// The error for floats whose bits, from \p Source, carry a derivative
/// that moving them as integers lost (ActivityAnalysis::lostFloatBits).
std::string describeLostFloatBits(const llvm::Value &Source);
/// The error for ActivityAnalysis::floatBitsPassedAsInteger.
/// The message for floatBitsReturnedAsInteger, of function \p F.
std::string describeFloatBitsReturnedAsInteger(const llvm::Function &F);
std::string describeFloatBitsPassedAsInteger(const llvm::CallBase &Call,
                                             unsigned ArgNo,
                                             const llvm::Value &Source);

/// The error for ActivityAnalysis::untypedBitsStored.
std::string describeUntypedBitsStored(const llvm::Value &Source);

/// When \p Ptr, a pointer without a shadow, is an address computed from an
/// integer (an `inttoptr` of arithmetic, as AddressSanitizer's stack frames
/// make), the error for a value with a derivative stored through it: the
/// engine cannot know which memory it is, and dropping the derivative would
/// be silently wrong. Empty otherwise.
std::string describeStoreThroughIntegerAddress(const llvm::Value &Ptr);
/// Why a call that moves derivatives cannot be given a shadow for its
/// pointer argument \p Ptr: it points to memory at an address computed from
/// an integer, or was loaded from such memory. Empty if neither.
std::string describeAddressFromInteger(const llvm::Value &Ptr);

/// The error for a value with a derivative stored through \p Ptr, a
/// pointer without a shadow (memory without derivatives: an enzyme_const
/// argument, a global, a pointer read from such memory): the derivative
/// would be lost where the program reads the value back. Empty for a
/// global the user marked inactive.
std::string describeDerivativeStoredWithoutShadow(const llvm::Value &Ptr);

/// For `inttoptr` of \p Int: the pointer whose address \p Int is, moved
/// within its object by integer arithmetic (offsets added or subtracted,
/// and rounding down to a power of two: `(p + 15) & -16`, how code aligns a
/// buffer it over-allocated, Eigen's aligned alloca), or with flags set in
/// its low bits (taggedBitsOperand); nullptr otherwise.
/// The shadow is that pointer's shadow moved by as many bytes.
const llvm::Value *addressArithmeticBase(const llvm::Value *Int);
/// \p Int, an integer, is computed from an address (a ptrtoint), through
/// integer arithmetic and casts.
bool computedFromAddress(const llvm::Value *Int, unsigned Depth = 0);

/// For `inttoptr (load iN p)`, the load: a pointer that optimised code
/// moved through memory as an integer, perhaps tagged (taggedBitsLoad).
/// nullptr for anything else.
llvm::LoadInst *integerLoadOfPointer(llvm::Instruction &I);
/// The integer load whose bits \p Int is, with flags set in or cleared from
/// the three low bits that an address's alignment leaves free (a tagged
/// pointer: Kokkos' allocation tracker, LLVM's PointerIntPair); nullptr
/// otherwise. A plain load is its own.
llvm::LoadInst *taggedBitsLoad(const llvm::Value *Int);
/// For an `or` or `and` that taggedBitsLoad walks through, the operand that
/// carries the address bits (the other sets or clears flags); -1 otherwise.
int taggedBitsOperand(const llvm::Value *Int);

class ActivityAnalysis;

/// What callees return, for the analysis of their callers. A pointer that a
/// caller stores into memory with a shadow wants a shadow of its own; on
/// the host a callee that returns one without (a reference to enzyme_const
/// memory) gives it a scratch shadow, but device code has no run-time to
/// make one. There the caller asks the callee first.
class CalleeReturnShadows {
public:
  virtual ~CalleeReturnShadows();
  /// \p Call's callee, given what \p Caller passes it, returns only
  /// pointers without a shadow (its own analysis says so): the caller
  /// treats the result as such.
  virtual bool returnsOnlyUnshadowed(const llvm::CallBase &Call,
                                     const ActivityAnalysis &Caller) = 0;
};

class ActivityAnalysis {
public:
  /// \p ArgActivities has one entry per argument of \p F; \p ReturnShadow:
  /// the caller needs the shadow of the pointer \p F returns. With
  /// \p ContextShadows, mutable globals without a declared shadow take one
  /// from the request's context (Core/ContextShadows.h).
  /// \p UnshadowedFields: per argument, the offsets at which the caller
  /// stored pointers without a shadow (empty: none).
  /// \p ReturnDerivative: the caller takes the derivative of the result
  /// (its adjoint or tangent); without it, what only the result depends
  /// on is inactive. \p Returns (optional) answers for calls whose
  /// pointer results are merely stored into memory with a shadow.
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<Activity> ArgActivities,
                   bool ReturnShadow = false, bool ContextShadows = false,
                   const UnshadowedFieldOffsets &UnshadowedFields = {},
                   bool ReturnDerivative = true,
                   CalleeReturnShadows *Returns = nullptr);

  /// Mutable globals take shadows from the request's context.
  bool contextShadows() const { return ContextShadows; }

  bool isActive(const llvm::Value *V) const { return Active.count(V); }
  /// Also true for constant addresses within a global whose shadow the
  /// user declared (Core/GlobalShadows.h), or, with context shadows,
  /// within a global that takes its shadow from the context.
  bool isShadowed(const llvm::Value *V) const;
  /// \p Call may read or write a global that has a shadow.
  bool mayTouchShadowedGlobals(const llvm::CallBase &Call) const;

  /// For a select or phi of pointers with a shadow, a choice that has none
  /// and that no null shadow can stand for (memory without derivatives: an
  /// enzyme_const argument, a global); nullptr when every choice is fine.
  const llvm::Value *unshadowedChoice(const llvm::Instruction &I) const;
  /// \p V carries pointers but has no shadow, and a null shadow is not
  /// right for it: it may point to memory that code with shadows reads
  /// derivatives through (not null, undef, functions or constants without
  /// floats). Where it goes into memory, a choice or a return with a
  /// shadow, it needs a scratch shadow (Core/ScratchShadows.h).
  bool needsScratchShadow(const llvm::Value *V) const;
  /// The same for \p V stored through \p Ptr, into memory with a shadow:
  /// not when the field stored to is known to hold pointers without one
  /// (readsUnshadowedField), whose readers never read its shadow.
  bool needsScratchShadowIn(const llvm::Value *V,
                            const llvm::Value *Ptr) const {
    return needsScratchShadow(V) && !readsUnshadowedField(Ptr);
  }

  /// For \p I, an `inttoptr` of bits taken out of a value loaded from
  /// memory with derivatives (through bitcasts, element extractions,
  /// shuffles) that has no shadow: that load; nullptr otherwise.
  const llvm::Value *lostPointerBits(const llvm::Instruction &I) const;
  /// For \p I reinterpreting integer bits as floats without a derivative,
  /// an active value or a load from memory with derivatives that those bits
  /// come from through integer operations the engine does not follow (lanes
  /// moved in a way that splits floats, bit arithmetic); nullptr otherwise.
  /// A zero derivative for \p I would be silently wrong.
  const llvm::Value *lostFloatBits(const llvm::Instruction &I) const;
  /// \p Bits, where integer bits come from, carries the bits of floats with
  /// a derivative: an active float (moved as its bits through a bitcast), or
  /// a load of integers from memory with derivatives that may hold floats.
  bool carriesFloatBits(const llvm::Value &Bits) const;
  /// For \p Call, a call of a function the engine differentiates or an
  /// inline assembly statement: the number of an integer argument
  /// assembled from the bits of a float that carries a derivative (a
  /// struct of a float and an integer passed by value, which the ABI packs
  /// into one integer; a float's words that assembly moves), which the
  /// callee would receive without it; \p Source is set to where those bits
  /// come from.
  std::optional<unsigned>
  floatBitsPassedAsInteger(const llvm::CallBase &Call,
                           const llvm::Value *&Source) const;

  /// For \p Ret returning an integer (alone, in a vector or in a struct)
  /// that is the bits of an active float (`bitcast float to i32`, moved
  /// whole): that float; nullptr otherwise. The caller would get the bits
  /// without their derivative (a struct of an integer that holds a float's
  /// bits, such as CUDA's `__half`, returned by value). A float packed with
  /// other data into a wider integer is PackedFloatLanes.h's.
  const llvm::Value *
  floatBitsReturnedAsInteger(const llvm::ReturnInst &Ret) const;

  /// For \p I storing into memory with derivatives an integer (vector) that
  /// only moves the bits of loads from such memory (integer shuffles, phis,
  /// selects) when nothing says whether those bits are integers or floats
  /// (the preparation retyped every web the type analysis could type): one
  /// of those loads; nullptr otherwise. \p Original is the function whose
  /// copy is analysed.
  const llvm::Value *untypedBitsStored(const llvm::Instruction &I,
                                       const llvm::Function *Original) const;

  /// \p Ptr points into a local that never holds a derivative or a shadow
  /// (every store puts an inactive value or a pointer without a shadow
  /// there) and that calls only read. A callee given it reads no
  /// derivative through it: pass it without its shadow, whose pointers are
  /// null, not shadows (a struct viewing enzyme_const memory).
  bool holdsNoDerivatives(const llvm::Value *Ptr) const;
  /// \p Arg, an argument of a call, goes to the callee with its shadow: it
  /// carries pointers that have one, and does not point into a local that
  /// holds no derivatives.
  bool passesShadow(const llvm::Value *Arg) const;
  /// For \p Arg, a pointer passed with its shadow: the offsets from it of
  /// pointers without a shadow (UnshadowedFieldOffsets), which a local's
  /// stores or this function's own argument put there.
  llvm::SmallVector<uint64_t, 2>
  unshadowedFieldsOf(const llvm::Value *Arg) const;
  /// \p Call, to a function with a body that may write memory, takes an
  /// active value. With nothing carrying a derivative out (no shadowed
  /// argument, an inactive result) it still needs differentiating: the
  /// callee may store the value into memory without derivatives, whose
  /// derivative would be lost, and its analysis says so.
  bool mayStoreActiveArgument(const llvm::CallBase &Call) const;

private:
  void propagate(llvm::Function &F);
  /// Makes inactive the floating-point values whose derivative reaches
  /// nothing: no memory, call or return, only comparisons and conversions
  /// to integers (UnreachedDerivatives.cpp). Their adjoint is zero, and
  /// multiplying it by an infinite partial would give NaN.
  void dropUnreachedDerivatives(llvm::Function &F, bool ReturnDerivative);
  /// \p Ptr receives derivatives (an active value or a shadowed pointer is
  /// stored through it) but has no shadow: gives one to the calls it may
  /// come from, whose augmented functions return the shadow of the memory
  /// they return (a helper that allocates), and to the memory a pointer it
  /// comes from was loaded from. Unless \p Required (a pointer merely stored
  /// into shadowed memory), only calls to functions defined here are
  /// given one, and not those that return only pointers without a shadow
  /// (CalleeReturnShadows). Returns true if it marked one.
  bool shadowOrigins(const llvm::Value *Ptr, bool Required, unsigned Depth = 0);
  /// \p Ptr points into a local whose every store puts a pointer without a
  /// shadow there, and that no call can write: a pointer read from it has
  /// no shadow either (the local's shadow holds null, not a shadow).
  bool holdsOnlyUnshadowedPointers(const llvm::Value *Ptr) const;
  /// \p Ptr addresses a field that holds a pointer without a shadow: one
  /// the caller named (UnshadowedFieldOffsets), or a field of a local that
  /// every store there fills with one and that no call can write.
  bool readsUnshadowedField(const llvm::Value *Ptr) const;
  /// Copies of a field from another object (a copy constructor at -O0)
  /// ask about that object's field, \p Depth copies deep.
  bool fieldHoldsUnshadowedPointer(const llvm::Value *Base, uint64_t Field,
                                   unsigned Depth = 0) const;
  /// \p Ptr points into a local whose every store puts there a value
  /// without a derivative or a shadow that \p Storable accepts, and that no
  /// call can write.
  bool
  localOnlyHolds(const llvm::Value *Ptr,
                 llvm::function_ref<bool(const llvm::Value &)> Storable) const;
  bool markActive(const llvm::Value *V);
  bool markShadowed(const llvm::Value *V);

  bool ReturnShadow;
  bool ContextShadows;
  CalleeReturnShadows *Returns;
  const llvm::DataLayout &DL;
  llvm::DenseMap<const llvm::Argument *, llvm::SmallVector<uint64_t, 2>>
      ArgUnshadowedFields;
  llvm::SmallPtrSet<const llvm::Value *, 32> Active;
  llvm::SmallPtrSet<const llvm::Value *, 32> Shadowed;
  /// What callees store into the locals they are given (a cache).
  mutable ParameterWrites CallWrites;
};

/// What each argument of \p Call carries into a reverse-mode callee: a
/// shadow (Dup), an adjoint (Out) or nothing (Const).
llvm::SmallVector<Activity, 4>
reverseArgumentActivities(const llvm::CallBase &Call,
                          const ActivityAnalysis &AA);

/// The UnshadowedFieldOffsets of \p Call's callee: for each argument
/// passed with its shadow, Activity.unshadowedFieldsOf; empty when none has
/// such fields.
UnshadowedFieldOffsets
unshadowedFieldsOfArguments(const llvm::CallBase &Call,
                            const ActivityAnalysis &Activity);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_ACTIVITYANALYSIS_H
