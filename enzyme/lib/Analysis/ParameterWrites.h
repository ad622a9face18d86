//===- ParameterWrites.h - What a function stores through a parameter -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a function stores through one of its pointer parameters, in terms of
/// its parameters. At -O0, `Map(const double *p, long n)` stores parameter 1
/// at offset 0 and parameter 2 at offset 8 of the object that parameter 0
/// points to (through its own spills, `cast_to_pointer_type(p)` and the base
/// class's constructor). A caller that builds a local with such a call knows
/// what the local holds as if it had stored the values itself: a Map over
/// enzyme_const data holds no derivative and needs no shadow.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_PARAMETERWRITES_H
#define ENZYME_ANALYSIS_PARAMETERWRITES_H

#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>

namespace llvm {
class CallBase;
class Constant;
class DataLayout;
class Function;
class Type;
class User;
class Value;
} // namespace llvm

namespace enzyme {

/// The address \p Int (a pointer as an integer) is only inspected:
/// computed with, compared, or reported by a sanitizer's check (UBSan's
/// alignment test), never turned back into a pointer or stored.
bool addressOnlyInspected(const llvm::Value &Int, unsigned Depth = 0);

/// By what the call site says, \p Call can neither write the memory that
/// its argument \p ArgNo points to nor keep its address: a lifetime marker,
/// debug information, `llvm.objectsize` (UBSan's checks ask for the object's
/// size), the source of a copy, or a parameter declared read-only and not
/// captured. The callee's body is not looked at.
bool callSiteOnlyReads(const llvm::CallBase &Call, unsigned ArgNo);

/// A use of an address (\p Offset bytes into an object, when known) in a
/// walk over what the object's address reaches: it only reads or inspects
/// the address (a load, a comparison, an integer only inspected), derives
/// another address from it (a GEP, with its offset when constant, or a
/// cast), or does something else the walk must look at.
struct AddressUse {
  enum Kind { Read, Derived, Other } What;
  std::optional<uint64_t> DerivedOffset;
};
AddressUse classifyAddressUse(const llvm::User &Usr,
                              std::optional<uint64_t> Offset,
                              const llvm::DataLayout &DL);

/// One store through a parameter: \p Size bytes at \p Offset from the
/// address the parameter holds, of a constant or of one of the function's
/// parameters (or a pointer computed from it, into the same object). With
/// \p StoredLoadedAt, what is stored is the value at that offset in the
/// object the parameter points to, which the function only reads (a copy
/// constructor's `Data(Other.Data)`).
struct ParameterWrite {
  uint64_t Offset;
  uint64_t Size;
  const llvm::Constant *StoredConstant;
  unsigned StoredParameter;
  std::optional<uint64_t> StoredLoadedAt;
  llvm::Type *StoredType;
};

/// Summaries of what functions store through their pointer parameters,
/// computed on demand and kept while the functions do not change.
class ParameterWrites {
public:
  struct Summary {
    llvm::SmallVector<ParameterWrite, 4> Writes;
    /// The function returns the parameter's address, at this offset from
    /// it (`derived()` and `operator=` return `*this`).
    std::optional<uint64_t> ReturnedAt;
  };

  /// Every store \p F makes through its parameter \p ArgNo, itself or in
  /// the callees it passes the address to, and whether it returns the
  /// address; null when one of them stores something other than a constant
  /// or a parameter, at an offset that is not constant, or the address goes
  /// anywhere else than loads, spills, returns and such calls (it is kept
  /// in memory, or given to a function without a body).
  const Summary *through(const llvm::Function &F, unsigned ArgNo);

  /// The stores \p Call makes through its argument \p ArgNo, with the
  /// values in the caller's terms: the constant, the argument passed for
  /// the parameter stored, or the argument whose object it was read from. False
  /// when there is no summary; sets \p ReturnedAt when the call returns the
  /// argument's address.
  struct CallerWrite {
    uint64_t Offset;
    uint64_t Size;
    /// The value stored, or null when it is the one at \p LoadedAt in the
    /// object \p LoadedFrom points to.
    const llvm::Value *Stored;
    const llvm::Value *LoadedFrom;
    uint64_t LoadedAt;
    llvm::Type *StoredType;
  };
  bool ofCall(const llvm::CallBase &Call, unsigned ArgNo,
              llvm::SmallVectorImpl<CallerWrite> &Writes,
              std::optional<uint64_t> &ReturnedAt);

private:
  std::optional<Summary> summarise(const llvm::Function &F, unsigned ArgNo,
                                   unsigned Depth);
  bool onlyReadsThrough(const llvm::Function &F, unsigned Source,
                        unsigned Written);
  const Summary *through(const llvm::Function &F, unsigned ArgNo,
                         unsigned Depth);

  /// std::nullopt while a summary is being computed (recursion: none).
  /// A node map: summaries stay where they are while others are added.
  std::map<std::pair<const llvm::Function *, unsigned>, std::optional<Summary>>
      Summaries;
};

} // namespace enzyme

#endif // ENZYME_ANALYSIS_PARAMETERWRITES_H
