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

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace enzyme {

/// A zeroed shadow allocation of \p Bytes bytes (calloc).
llvm::Value *createZeroedShadowMemory(llvm::IRBuilder<> &B, llvm::Value *Bytes);

/// `ptr enzyme.shadow.realloc(ptr old, i64 n)`: a new zeroed shadow of n
/// bytes holding the old shadow's contents. The old shadow stays allocated
/// (reverse mode moves the adjoints back into it; forward mode frees it).
llvm::Function *getShadowRealloc(llvm::Module &M);

} // namespace enzyme

#endif // ENZYME_CORE_SHADOWMEMORY_H
