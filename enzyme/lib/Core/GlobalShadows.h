//===- GlobalShadows.h - Globals whose shadow the user declared -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A mutable global that carries derivatives needs shadow memory, as a
/// pointer argument does. `__attribute__((enzyme_shadow(g_shadow)))` (or the
/// registration `__enzyme_shadow_global`) names it: the engine then uses
/// `g_shadow` wherever the derivative code needs the shadow of `g`, of an
/// element of it, or of a constant expression built on it.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_GLOBALSHADOWS_H
#define ENZYME_CORE_GLOBALSHADOWS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class CallBase;
class Constant;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace enzyme {

/// Records \p Shadow as the shadow of \p GV (metadata on the global).
void setGlobalShadow(llvm::GlobalVariable &GV, llvm::GlobalVariable &Shadow);

/// The declared shadow of \p GV, if any.
llvm::GlobalVariable *globalShadowOf(const llvm::GlobalVariable &GV);

/// \p V is a constant address within a global that has a declared shadow.
bool hasConstantShadow(const llvm::Value *V);

/// The same constant address within the shadow (\p C a global with a
/// declared shadow, or casts and GEPs of one); nullptr otherwise.
llvm::Constant *constantShadow(llvm::Constant *C);

/// Marks the functions that access a global with a declared shadow,
/// directly or through the functions they call, so that calls to them
/// count as carrying derivatives whatever their arguments.
void markShadowedGlobalUsers(llvm::Module &M);

/// \p Call may read or write a global with a declared shadow (a call
/// through a pointer may, when the program declares any).
bool mayTouchShadowedGlobals(const llvm::CallBase &Call);

/// Gives each `__shared__` array of CUDA device code that holds
/// floating-point data a shadow of its own in shared memory, unless the
/// user declared one. (An `extern __shared__` array, sized at launch, gets
/// none: its derivative is an error that says so.)
void createSharedMemoryShadows(llvm::Module &M);

/// Gives each `extern __shared__` array of CUDA device code a stand-in
/// shadow: an `extern __shared__` array of
/// its own, which would alias the primal, so that the derivative kernels of
/// launches, which place the shadows after the primal data in dynamic
/// shared memory, can rewrite its uses (Plugin/DynamicSharedShadows.cpp).
/// Returns the stand-ins.
llvm::SmallVector<llvm::GlobalVariable *, 2>
createDynamicSharedShadows(llvm::Module &M);

/// \p Shadow is a stand-in createDynamicSharedShadows made.
bool isDynamicSharedShadow(const llvm::GlobalVariable &Shadow);

/// Forgets the shadow of \p GV (which code generated later then lacks).
void clearGlobalShadow(llvm::GlobalVariable &GV);

/// \p GV's shadow is one createSharedMemoryShadows made: like shared memory,
/// it holds garbage when a block starts, so the forward pass zeroes the
/// shadow of each location where it writes the location.
bool shadowStartsUndefined(const llvm::GlobalVariable &GV);

/// Some global of \p M has a shadow that starts undefined.
bool anyShadowStartsUndefined(const llvm::Module &M);

/// Zeroes \p Bytes of \p Shadow, the shadow of \p Primal, where \p Primal
/// turns out at run time to point into shared memory (whose shadow starts
/// undefined): a store through a pointer that may point there, or not.
void emitZeroShadowIfShared(llvm::IRBuilder<> &B, llvm::Value *Primal,
                            llvm::Value *Shadow, uint64_t Bytes);

/// Removes the shadows createSharedMemoryShadows made that no derivative
/// used: shared memory is scarce.
void removeUnusedSharedMemoryShadows(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_CORE_GLOBALSHADOWS_H
