//===- AtomicUpdateLoops.h - Compare-and-swap loops as atomic adds -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of preparing a function for differentiation. Code written before
/// GPUs had an atomic addition of doubles (the CUDA Programming Guide's own
/// `atomicAdd(double *, double)`), and host code with `std::atomic<double>`
/// before C++20, adds atomically with a compare-and-swap loop on the
/// value's bits:
///
///   old = *(unsigned long long *)p;
///   do { assumed = old;
///        old = atomicCAS(p, assumed, bits(v + value(assumed)));
///   } while (assumed != old);
///
/// The loop is an atomic `*p += v` that returns the value before it, and
/// it carries the derivative through integers, which the engine cannot
/// follow (an error). Such a loop becomes the `atomicrmw fadd` (or `fsub`)
/// it computes, which is differentiated like CUDA's atomicAdd.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_ATOMICUPDATELOOPS_H
#define ENZYME_MODES_ATOMICUPDATELOOPS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Replaces each loop of \p F that only retries a compare-and-swap of a
/// float's bits (a `cmpxchg`, or a call of CUDA's `atomicCAS`) with that
/// float plus (or minus) a value the loop does not change, until the swap
/// succeeds, by the atomic addition (subtraction); true if something
/// changed.
bool raiseAtomicUpdateLoops(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_ATOMICUPDATELOOPS_H
