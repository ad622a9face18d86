//===- ContextShadows.h - Shadows of globals kept in a context --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A request marked `enzyme_context, ctx` gives every mutable global that
/// carries derivatives and has no declared shadow (Core/GlobalShadows.h) a
/// shadow kept in `ctx`, a run-time object the user creates with
/// `__enzyme_context()` and frees with `__enzyme_free_context(ctx)`:
///
///  - the request's call to the generated code sets a thread-local
///    "current context" to `ctx` and restores the previous one after it, so
///    nested requests with other contexts work;
///  - code generated for a signature with context shadows (the flag in
///    ReverseSignature / ForwardSignature, which callees inherit) gets the
///    shadow of such a global `g` by one run-time call per generated
///    function, at its entry: a zeroed block of `g`'s size, created on first
///    use and kept in the context (it accumulates across calls, like any
///    shadow);
///  - `__enzyme_shadow(ctx, &g, flags)` gives the user that block (to seed
///    it and read it), `__enzyme_zero_shadows(ctx)` zeroes every block.
///
/// The run-time is emitted into the module as linkonce_odr IR functions, so
/// it needs no library: every module that uses it carries a copy, and the
/// linker keeps one. A context is a linked list of (global, bytes, shadow);
/// a request without globals that need a shadow never looks it up.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_CONTEXTSHADOWS_H
#define ENZYME_CORE_CONTEXTSHADOWS_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <string>
#include <utility>

namespace llvm {
class CallBase;
class CallInst;
class Constant;
class Function;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace enzyme {

/// `__enzyme_shadow`'s flag that zeroes the global's whole shadow before
/// returning it.
constexpr uint64_t ShadowFlagZero = 1;

/// \p GV may take its shadow from a context: mutable, not thread-local,
/// without a declared shadow, not marked inactive, of a known non-zero
/// size, holding floating-point data and no pointers (a pointer's shadow
/// would have to point to the pointee's shadow, which a zeroed block
/// cannot).
bool isContextGlobal(const llvm::GlobalVariable &GV);

/// Why \p GV cannot take its shadow from a context (empty when it can).
std::string whyNoContextShadow(const llvm::GlobalVariable &GV);

/// The bytes of \p GV's shadow in a context.
uint64_t contextShadowBytes(const llvm::GlobalVariable &GV);

/// \p V is a constant address within a context global.
bool hasContextShadow(const llvm::Value *V);

/// Marks the functions that access a context global, directly or through
/// their callees, so that in code generated with context shadows calls to
/// them carry derivatives whatever their arguments. Only modules that use
/// the `enzyme_context` marker are walked.
void markContextGlobalUsers(llvm::Module &M);

/// \p Call may read or write a context global (a call through a pointer
/// may, when the module has any).
bool mayTouchContextGlobals(const llvm::CallBase &Call);

/// The shadows of context globals in the functions one generator builds:
/// each is looked up once, at the entry of the function that needs it.
class ContextShadowLookups {
public:
  /// The shadow, in \p F, of the constant address \p C within a context
  /// global; nullptr when \p C is not one.
  llvm::Value *shadowOf(llvm::Function &F, llvm::Constant *C);

private:
  llvm::DenseMap<std::pair<llvm::Function *, llvm::Constant *>, llvm::Value *>
      Cache;
};

/// Replaces the calls of \p M to the context API (`__enzyme_context`,
/// `__enzyme_free_context`, `__enzyme_zero_shadows`, `__enzyme_shadow`) by
/// calls to the run-time, which it defines; misuse is an error at the call.
void lowerContextCalls(llvm::Module &M);

/// Makes \p Ctx the current context around \p Call (a call to generated
/// code), restoring the previous one after it.
void setCurrentContextAround(llvm::CallInst &Call, llvm::Value *Ctx);

} // namespace enzyme

#endif // ENZYME_CORE_CONTEXTSHADOWS_H
