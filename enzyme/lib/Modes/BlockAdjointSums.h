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
/// address. In a derivative that waits for its block (`__syncthreads`) both
/// before such an addition and after it, the block's warps can sum theirs
/// in shared memory instead, and one thread adds the block's sum after the
/// later barrier:
///
///  - at the function's entry, thread (0, 0, 0) empties a slot in shared
///    memory (an address and a sum);
///  - a barrier that every path to the addition passes orders that before
///    any warp's addition; a warp claims the slot for its address (a
///    compare-and-swap from 0) and adds into the slot, or, when another
///    warp of the block claimed it for another address, adds into global
///    memory as before;
///  - a barrier that follows the addition on every path, outside any loop,
///    orders every warp's addition before thread (0, 0, 0) adds the slot's
///    sum into its address.
///
/// CUDA requires every thread of a block to reach each `__syncthreads`, so
/// thread (0, 0, 0) runs the entry and the barriers too.
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

/// Sums the marked additions of \p F per block where its barriers allow
/// (above). Returns whether \p F changed.
bool sumWarpAdditionsPerBlock(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_BLOCKADJOINTSUMS_H
