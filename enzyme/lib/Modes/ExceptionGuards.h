//===- ExceptionGuards.h - Calls that may throw, in derivatives -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Exceptions are not differentiated: a prepared function's invokes are
/// calls and its landing pads are gone (PreparedFunction.h), so the engine
/// differentiates the path on which nothing throws. That path is what runs
/// in almost every program that uses try/catch, RAII or throwing library
/// calls, so such functions differentiate; but a call that does throw while
/// a derivative runs must not unwind through generated code, which holds
/// tapes and shadows that no landing pad frees and which is `nounwind`.
///
/// Every generated function therefore gets, for each call that may still
/// throw (a call to a primal function, a user's custom derivative, an
/// unknown pointer), an invoke whose landing pad catches everything and
/// calls the run-time reporter (runtime/ExceptionReport.c): the program
/// stops with a message naming the function and the call. This is done
/// once, on each finished function, whatever the mode that generated it,
/// rather than by every generator while it emits calls; calls to other
/// generated functions are `nounwind` and need no guard. C code, where
/// nothing can catch, gets no landing pads (and needs no C++ run-time).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_EXCEPTIONGUARDS_H
#define ENZYME_MODES_EXCEPTIONGUARDS_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Turns each call in \p Generated (a function generated from \p Primal)
/// that may throw into an invoke that unwinds to a report of the exception
/// and abort. Nothing for targets without the run-time (GPUs, which have no
/// exceptions).
void guardCallsThatMayThrow(llvm::Function &Generated,
                            const llvm::Function &Primal);

} // namespace enzyme

#endif // ENZYME_MODES_EXCEPTIONGUARDS_H
