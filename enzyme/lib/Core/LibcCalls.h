//===- LibcCalls.h - C library calls in generated code ----------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The C library functions that generated code calls (shadow allocations,
/// the tape's storage), declared once with the right types.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_LIBCCALLS_H
#define ENZYME_CORE_LIBCCALLS_H

#include "llvm/IR/IRBuilder.h"

namespace enzyme {

/// `calloc(Count, Size)`: zeroed memory (malloc and memset on GPUs).
llvm::Value *emitCalloc(llvm::IRBuilder<> &B, llvm::Value *Count,
                        llvm::Value *Size, const llvm::Twine &Name = "");
/// `malloc(Size)`.
llvm::Value *emitMalloc(llvm::IRBuilder<> &B, llvm::Value *Size,
                        const llvm::Twine &Name = "");
/// `realloc(Ptr, Size)` (not in GPU device code).
llvm::Value *emitRealloc(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                         llvm::Value *Size);
/// In GPU device code: prints \p Message (device printf) and traps.
void emitDeviceTrap(llvm::IRBuilder<> &B, llvm::StringRef Message);
/// `free(Ptr)`.
void emitFree(llvm::IRBuilder<> &B, llvm::Value *Ptr);
/// `malloc_usable_size(Ptr)` (glibc): the bytes an allocation really has.
llvm::Value *emitMallocUsableSize(llvm::IRBuilder<> &B, llvm::Value *Ptr);

} // namespace enzyme

#endif // ENZYME_CORE_LIBCCALLS_H
