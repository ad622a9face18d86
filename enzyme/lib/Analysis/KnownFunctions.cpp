//===- KnownFunctions.cpp - Library functions the engine knows ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KnownFunctions.h"

#include "Analysis/MemoryTypes.h"
#include "Core/KokkosRuntime.h"
#include "Core/MpiRuntime.h"
#include "Core/OpenMPRuntime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

static StringRef calleeName(const CallBase &Call) {
  if (const Function *F = Call.getCalledFunction())
    return F->getName();
  return "";
}

bool isAllocationCall(const CallBase &Call) {
  static const StringSet<> Names = {"malloc",
                                    "calloc",
                                    "realloc",
                                    "aligned_alloc",
                                    "memalign",
                                    "_Znwm",
                                    "_Znam",
                                    "_ZnwmRKSt9nothrow_t",
                                    "_ZnamRKSt9nothrow_t",
                                    "_ZnwmSt11align_val_t",
                                    "_ZnamSt11align_val_t",
                                    "_ZnwmSt11align_val_tRKSt9nothrow_t",
                                    "_ZnamSt11align_val_tRKSt9nothrow_t"};
  if (Names.contains(calleeName(Call)))
    return true;
  // __enzyme_allocation_like.
  const Function *F = Call.getCalledFunction();
  return F && F->hasFnAttribute("enzyme_allocation_size_arg");
}

unsigned allocationSizeOperand(const CallBase &Call) {
  StringRef Name = calleeName(Call);
  if (Name == "aligned_alloc" || Name == "memalign")
    return 1;
  if (const Function *F = Call.getCalledFunction()) {
    unsigned Index = 0;
    if (!F->getFnAttribute("enzyme_allocation_size_arg")
             .getValueAsString()
             .getAsInteger(10, Index))
      return Index;
  }
  // malloc(n), operator new(n, ...).
  return 0;
}

std::optional<unsigned> allocationAlignmentOperand(const CallBase &Call) {
  StringRef Name = calleeName(Call);
  if (Name == "aligned_alloc" || Name == "memalign")
    return 0;
  // operator new(size_t, std::align_val_t[, nothrow_t]).
  if (Name.starts_with("_Zn") && Name.contains("St11align_val_t"))
    return 1;
  return std::nullopt;
}

bool isReallocCall(const CallBase &Call) {
  return calleeName(Call) == "realloc";
}

bool isFreshAllocationCall(const CallBase &Call) {
  return isAllocationCall(Call) && !isReallocCall(Call);
}

bool isDeallocationCall(const CallBase &Call) {
  static const StringSet<> Names = {"free",
                                    "_ZdlPv",
                                    "_ZdaPv",
                                    "_ZdlPvm",
                                    "_ZdaPvm",
                                    "_ZdlPvSt11align_val_t",
                                    "_ZdaPvSt11align_val_t",
                                    "_ZdlPvmSt11align_val_t",
                                    "_ZdaPvmSt11align_val_t",
                                    "_ZdlPvRKSt9nothrow_t",
                                    "_ZdaPvRKSt9nothrow_t",
                                    "_ZdlPvSt11align_val_tRKSt9nothrow_t",
                                    "_ZdaPvSt11align_val_tRKSt9nothrow_t"};
  if (Names.contains(calleeName(Call)))
    return true;
  // The deallocator of an __enzyme_allocation_like allocator.
  const Function *F = Call.getCalledFunction();
  return F && F->hasFnAttribute("enzyme_deallocation");
}

AllocatorFamily allocatorFamily(const CallBase &Call) {
  // operator new (_Znw), new[] (_Zna), delete (_Zdl) and delete[] (_Zda),
  // in all their forms.
  StringRef Name = calleeName(Call);
  if (Name.starts_with("_Znw") || Name.starts_with("_Zdl"))
    return AllocatorFamily::New;
  if (Name.starts_with("_Zna") || Name.starts_with("_Zda"))
    return AllocatorFamily::NewArray;
  return AllocatorFamily::Malloc;
}

std::optional<unsigned> deallocationAlignmentOperand(const CallBase &Call) {
  // operator delete(void*[, size_t], std::align_val_t[, nothrow_t]).
  StringRef Name = calleeName(Call);
  if (!Name.starts_with("_Zd") || !Name.contains("St11align_val_t"))
    return std::nullopt;
  return Name.starts_with("_ZdlPvm") || Name.starts_with("_ZdaPvm") ? 2 : 1;
}

/// C++ runtime functions that move no derivative: they write no
/// floating-point value into memory the program later reads, and return
/// none. Matched on the Itanium-mangled names libstdc++ exports (the
/// instantiations for char that it compiles itself), exactly or as a
/// prefix. docs/reverse-mode.md lists them for users.
static bool isInactiveLibstdcxxName(StringRef Name) {
  if (!Name.starts_with("_Z"))
    return false;
  static const StringSet<> Exact = {
      // Hashing: std::hash<double> and std::hash<std::string> hash bytes
      // into a size_t.
      "_ZSt11_Hash_bytesPKvmm",
      "_ZSt15_Fnv_hash_bytesPKvmm",
      // Facets the stream operators consult.
      "_ZNKSt5ctypeIcE13_M_widen_initEv",
      // std::allocator<char>, empty: what -O0 calls around a std::string.
      "_ZNSaIcEC1Ev",
      "_ZNSaIcEC2Ev",
      "_ZNSaIcED1Ev",
      "_ZNSaIcED2Ev",
  };
  if (Exact.contains(Name))
    return true;
  static const char *const Prefixes[] = {
      // std::ostream (basic_ostream<char>) members: operator<< of every
      // type and of manipulators, _M_insert<T>, put, write, flush; the
      // other basic_ostream instantiations.
      "_ZNSolsE",
      "_ZNSo9_M_insertI",
      "_ZNSo3putEc",
      "_ZNSo5writeEPKcl",
      "_ZNSo5flushEv",
      "_ZNSt13basic_ostreamI",
      // Free operator<<(ostream &, const char * / char / ...) and what it
      // calls; the manipulators std::endl, std::ends, std::flush.
      "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_",
      "_ZSt16__ostream_insertI",
      "_ZSt4endlI",
      "_ZSt4endsI",
      "_ZSt5flushI",
      // std::locale: construction, copies, destruction, classic(),
      // global(); the facet look-ups.
      "_ZNSt6locale",
      "_ZNKSt6locale",
      "_ZSt9use_facetI",
      "_ZSt9has_facetI",
      // std::unordered_map's growth policy: sizes from sizes (and its
      // constant maximum load factor).
      "_ZNKSt8__detail20_Prime_rehash_policy",
      "_ZNSt8__detail20_Prime_rehash_policy",
      // std::string (basic_string<char>) members and concatenation, which
      // -O0 calls rather than inlines: characters carry no derivative.
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
      "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
      "_ZStplIcSt11char_traitsIcESaIcEENSt7__cxx1112basic_stringIT_T0_T1_E",
  };
  for (const char *Prefix : Prefixes)
    if (Name.starts_with(Prefix))
      return true;
  // std::istream::operator>> into integers, bools and strings reads no
  // derivative (into a float or double it would overwrite one: not here).
  static const StringSet<> IntegerExtractions = {
      "_ZNSirsERb", "_ZNSirsERs", "_ZNSirsERt", "_ZNSirsERi", "_ZNSirsERj",
      "_ZNSirsERl", "_ZNSirsERm", "_ZNSirsERx", "_ZNSirsERy"};
  if (IntegerExtractions.contains(Name))
    return true;
  // std::__throw_bad_alloc(), std::__throw_out_of_range(const char *)...:
  // "_ZSt" <length> "__throw_".
  StringRef Rest = Name.drop_front(4);
  if (Name.starts_with("_ZSt") && !Rest.empty() && isDigit(Rest.front()))
    return Rest.ltrim("0123456789").starts_with("__throw_");
  return false;
}

bool isInactiveCall(const CallBase &Call) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::invariant_start:
    case Intrinsic::invariant_end:
    case Intrinsic::prefetch:
    case Intrinsic::stacksave:
    case Intrinsic::stackrestore:
    case Intrinsic::trap:
    case Intrinsic::donothing:
    case Intrinsic::is_constant:
    case Intrinsic::expect:
    case Intrinsic::objectsize:
      return true;
    default:
      return false;
    }
  }
  static const StringSet<> Names = {
      "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush",
      "sprintf", "snprintf", "vprintf", "vfprintf", "fwrite", "perror", "abort",
      "exit", "_exit", "clock", "time", "gettimeofday", "clock_gettime",
      "__cxa_guard_acquire", "__cxa_guard_release", "__assert_fail",
      "__cxa_throw", "__cxa_allocate_exception", "rand", "srand", "strlen",
      "strcmp", "strncmp", "memcmp", "bcmp", "setlocale", "localeconv",
      // Mutexes (std::mutex, Kokkos' instance locks): no value passes
      // through them.
      "pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_unlock"};
  if (Names.contains(calleeName(Call)) ||
      isInactiveLibstdcxxName(calleeName(Call)) || isInactiveOpenMPCall(Call) ||
      isInactiveMpiCall(Call) || isInactiveKokkosCall(Call))
    return true;
  // What memory holds, said to the type analysis (`__enzyme_double(p, n)`).
  if (annotatedType(Call))
    return true;
  // The function's attribute, or the call's (calls the engine restates).
  return Call.hasFnAttr("enzyme_inactive");
}

} // namespace enzyme
