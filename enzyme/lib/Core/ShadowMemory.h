//===- ShadowMemory.h - Allocating shadow memory ----------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// New memory that a differentiated function allocates gets shadow memory of
/// the same size, zeroed: no derivative has reached it yet. Both generators
/// allocate shadows the same way, so a shadow made by one mode can be freed
/// by another.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_SHADOWMEMORY_H
#define ENZYME_CORE_SHADOWMEMORY_H

#include "Analysis/KnownFunctions.h"

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// A zeroed shadow allocation of \p Bytes bytes, aligned to \p Alignment
/// (an i64, as the primal's allocator was asked) when that is given: the
/// accesses that the primal code marks aligned (vmovapd) are made to the
/// shadow too. The shadow of a block from operator new (\p Family) comes
/// from the same operator new, so that code which deletes an object it was
/// handed (a library's) deletes a shadow correctly; other shadows come
/// from calloc (aligned_alloc beyond its alignment). Device code: malloc.
llvm::Value *
createZeroedShadowMemory(llvm::IRBuilder<> &B, llvm::Value *Bytes,
                         llvm::Value *Alignment = nullptr,
                         AllocatorFamily Family = AllocatorFamily::Malloc);
/// Frees \p Shadow, made by createZeroedShadowMemory for \p Family and
/// \p Alignment.
void freeShadowMemory(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                      AllocatorFamily Family, llvm::Value *Alignment);
/// The arguments that tell the run-time how to free a shadow (ShadowRelease.h
/// in runtime/): the family (i32) and the alignment of an aligned operator
/// delete, or 0 (i64).
std::pair<llvm::Value *, llvm::Value *>
shadowReleaseArguments(llvm::IRBuilder<> &B, AllocatorFamily Family,
                       llvm::Value *Alignment);

/// The zeroed heap shadow of the local \p Local (\p Bytes bytes, aligned
/// to \p A): its address has the same remainder as the local's modulo 64
/// (or \p A, if larger). Code that chooses its accesses by the address's
/// alignment at run time (Eigen peels elements until a packet boundary,
/// then loads packets with movapd) makes aligned accesses at the same
/// offsets of the shadow. Freed with freeShadowOfLocal.
llvm::Value *createShadowOfLocal(llvm::IRBuilder<> &B, llvm::Value *Local,
                                 llvm::Value *Bytes, llvm::Align A);
/// Frees \p Shadow, made by createShadowOfLocal for a local aligned to \p A.
void freeShadowOfLocal(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                       llvm::Align A);
/// The same for forward mode, whose shadows of locals are locals too.
llvm::Value *createStackShadowOfLocal(llvm::IRBuilder<> &B, llvm::Value *Local,
                                      llvm::Value *Bytes, llvm::Align A,
                                      const llvm::Twine &Name);

/// `ptr enzyme.shadow.realloc(ptr old, i64 n)`: a new zeroed shadow of n
/// bytes holding the old shadow's contents. The old shadow stays allocated
/// (reverse mode moves the adjoints back into it; forward mode frees it).
llvm::Function *getShadowRealloc(llvm::Module &M);

// --- Shadows that outlive their allocator's frame ------------------------
// A block that leaves the function that allocates it may be freed by
// another function (std::vector's storage). Its shadow lives until the
// sweep's reverse pass is over, then is freed if the engine made it
// (runtime/ShadowRegistry.c). All of these do nothing for targets without
// the run-time (canLinkRuntime).

/// Records \p Shadow, which generated code just made for a block that
/// leaves the function.
void recordEscapingShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow);

/// The reverse of freeing a block allocated elsewhere: its shadow \p Shadow
/// is freed when the sweep ends if the engine made it, by the deallocator
/// of \p Family (with \p Alignment, for an aligned operator delete).
void handOverShadow(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                    AllocatorFamily Family, llvm::Value *Alignment);

/// \p Reverse (a reverse function), or a function it calls, hands shadows
/// over: the sweep that calls it must be bracketed.
bool handsOverShadows(const llvm::Function &Reverse);

/// Starts a sweep; the result is the mark endSweep takes.
llvm::Value *beginSweep(llvm::IRBuilder<> &B);
/// Frees the shadows handed over since \p Mark. \p Gradient: the sweep
/// is a whole gradient (both passes), after which shadows still recorded
/// have left with their blocks and are forgotten (not split mode, whose
/// other tapes may still hand theirs over).
void endSweep(llvm::IRBuilder<> &B, llvm::Value *Mark, bool Gradient);

} // namespace enzyme

#endif // ENZYME_CORE_SHADOWMEMORY_H
