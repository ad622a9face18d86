//===- KnownFunctions.cpp - Library functions the engine knows ------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Analysis/KnownFunctions.h"

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
                                    "_Znwm",
                                    "_Znam",
                                    "_ZnwmRKSt9nothrow_t",
                                    "_ZnamRKSt9nothrow_t",
                                    "_ZnwmSt11align_val_t",
                                    "_ZnamSt11align_val_t"};
  if (Names.contains(calleeName(Call)))
    return true;
  // __enzyme_allocation_like.
  const Function *F = Call.getCalledFunction();
  return F && F->hasFnAttribute("enzyme_allocation_size_arg");
}

unsigned allocationSizeOperand(const CallBase &Call) {
  StringRef Name = calleeName(Call);
  if (Name == "aligned_alloc")
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
                                    "_ZdaPvmSt11align_val_t"};
  if (Names.contains(calleeName(Call)))
    return true;
  // The deallocator of an __enzyme_allocation_like allocator.
  const Function *F = Call.getCalledFunction();
  return F && F->hasFnAttribute("enzyme_deallocation");
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
  static const StringSet<> Names = {"printf",
                                    "fprintf",
                                    "puts",
                                    "fputs",
                                    "putchar",
                                    "fputc",
                                    "fflush",
                                    "sprintf",
                                    "snprintf",
                                    "vprintf",
                                    "vfprintf",
                                    "fwrite",
                                    "perror",
                                    "abort",
                                    "exit",
                                    "_exit",
                                    "clock",
                                    "time",
                                    "gettimeofday",
                                    "clock_gettime",
                                    "__cxa_guard_acquire",
                                    "__cxa_guard_release",
                                    "__assert_fail",
                                    "__cxa_throw",
                                    "__cxa_allocate_exception",
                                    "rand",
                                    "srand",
                                    "strlen",
                                    "strcmp",
                                    "strncmp"};
  if (Names.contains(calleeName(Call)))
    return true;
  if (const Function *F = Call.getCalledFunction())
    return F->hasFnAttribute("enzyme_inactive");
  return Call.hasFnAttr("enzyme_inactive");
}

} // namespace enzyme
