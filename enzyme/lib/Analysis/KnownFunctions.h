//===- KnownFunctions.h - Library functions the engine knows ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Classifies calls to library functions whose behaviour the engine knows
/// without a body: allocation and deallocation, and functions that never
/// carry derivatives (I/O, timing, debug intrinsics).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_ANALYSIS_KNOWNFUNCTIONS_H
#define ENZYME_ANALYSIS_KNOWNFUNCTIONS_H

#include <optional>

namespace llvm {
class CallBase;
} // namespace llvm

namespace enzyme {

/// malloc, calloc, realloc, aligned_alloc, memalign, operator new / new[]
/// (plain, aligned, nothrow), and the allocators users mark with
/// __enzyme_allocation_like.
bool isAllocationCall(const llvm::CallBase &Call);
/// The operand of an allocation call (not calloc, not realloc) that holds
/// its size in bytes.
unsigned allocationSizeOperand(const llvm::CallBase &Call);
/// The operand of the allocation call \p Call that asks for an alignment
/// (aligned_alloc, memalign, aligned operator new), if any.
std::optional<unsigned> allocationAlignmentOperand(const llvm::CallBase &Call);
/// realloc: an allocation that also frees its first argument.
bool isReallocCall(const llvm::CallBase &Call);
/// An allocation that returns a new block and frees none (not realloc).
bool isFreshAllocationCall(const llvm::CallBase &Call);
/// free, operator delete / delete[] (sized and unsized).
bool isDeallocationCall(const llvm::CallBase &Call);

/// Which deallocator frees a block: the C library's `free` (malloc,
/// calloc, realloc, aligned_alloc, and the allocators users mark, whose
/// blocks' shadows the engine makes with calloc), operator delete, or
/// operator delete[]. Aligned forms take their alignment too.
enum class AllocatorFamily { Malloc = 0, New = 1, NewArray = 2 };
/// The family of the allocation or deallocation call \p Call.
AllocatorFamily allocatorFamily(const llvm::CallBase &Call);
/// The operand of an aligned operator delete / delete[] that holds the
/// alignment, if \p Call is one.
std::optional<unsigned>
deallocationAlignmentOperand(const llvm::CallBase &Call);
/// Calls that never carry derivatives and need nothing in the reverse pass:
/// I/O, timing, debug and lifetime intrinsics, and functions the user marked
/// inactive (`enzyme_inactive` attribute).
bool isInactiveCall(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_ANALYSIS_KNOWNFUNCTIONS_H
