//===- BlockAdjointSums.h - A block's sums before global atomics -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// When every thread of a launch adds its adjoint into one address (a
/// coefficient all threads read), each warp first sums its lanes
/// (SharedAdjoints.h), and the warps of all blocks still queue at that one
/// address. Where a kernel waits for its block (`__syncthreads`) both
/// before such an addition and after it, the block's warps can sum theirs
/// in shared memory instead, and one warp adds the block's sum after the
/// later barrier. A slot in shared memory holds an address and a sum:
///
///  - every thread empties it at the kernel's entry, where all threads of
///    the block are, and waits there for the others (one barrier more per
///    launch, before the kernel's own code);
///  - a barrier that every path to the addition passes orders that before
///    any warp's addition; a warp claims the slot for its address (a
///    compare-and-swap from 0) and adds into the slot, or, when another
///    warp of the block claimed it for another address, adds into global
///    memory as before;
///  - a barrier that follows the addition on every path, outside any loop,
///    orders every warp's addition before the flush: the first active lane
///    of each warp exchanges the slot's address for 0, and the one that
///    finds an address exchanges the sum for 0 and adds it there. The slot
///    is empty again before any thread passes the first barrier of a later
///    call.
///
/// No thread of the block is assumed to reach the additions: threads that
/// return early have emptied the slot before, and any warp flushes it.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_BLOCKADJOINTSUMS_H
#define ENZYME_MODES_BLOCKADJOINTSUMS_H

namespace llvm {
class AtomicRMWInst;
class Function;
} // namespace llvm

namespace enzyme {

/// Marks \p Add as the addition of a whole warp's sum into global memory.
void markWarpSumAddition(llvm::AtomicRMWInst &Add);

/// Sums the marked additions of the CUDA kernel \p Kernel (derivatives
/// inlined) per block where its barriers allow (above). Returns whether
/// \p Kernel changed.
bool sumWarpAdditionsPerBlock(llvm::Function &Kernel);

} // namespace enzyme

#endif // ENZYME_MODES_BLOCKADJOINTSUMS_H
