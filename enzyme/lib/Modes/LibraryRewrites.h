//===- LibraryRewrites.h - Library calls the engine restates ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Library functions that return a second result through a pointer are
/// restated, in the prepared copy only, so that what they write is an
/// ordinary store the generators already differentiate:
///
/// - `posix_memalign(&p, align, n)` becomes an allocator that returns its
///   block (memalign) and a store of the block to p: the shadow of the
///   block then travels as any pointer stored to memory does (both modes
///   mirror stored pointers into the shadow of the memory), and the block
///   is freed like malloc's.
/// - `modf(x, &i)` (and modff, modfl) is followed by `i = trunc(x)`, the
///   value modf wrote: the store overwrites i's shadow with the derivative
///   0 (forward mode) or consumes its adjoint (reverse mode), which a call
///   could not do. The call's own derivative is a rule (MathRules.cpp).
/// - `in >> d` (libstdc++'s std::istream extraction into a float, double
///   or long double) reads into a fresh local instead, and d is assigned
///   from it when the stream's sentry let the extraction run: the value
///   read is a constant, and an assignment is what the generators
///   differentiate (derivative 0, adjoint consumed).
/// - a complex function of the rule table whose complex values travel in
///   another convention than double's (x86-64: `float complex` as
///   <2 x float>, `long double complex` arguments as byval copies, the
///   runtime's __mulsc3 returning <2 x float>) calls instead an internal
///   `enzyme.complex.NAME` that takes the parts one by one, returns {T, T}
///   and calls NAME in its own convention; it behaves like the rule's
///   function (`enzyme_math`), so the one table serves every part type.
/// - libdevice's reinterpretations of bits (`__nv_longlong_as_double`,
///   `__nv_float_as_int`, `__nv_hiloint2double`, ...) become the casts and
///   shifts they are, which the type analysis and the checks of floats
///   moved as integers read (Modes/FloatBitWebs.h).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_LIBRARYREWRITES_H
#define ENZYME_MODES_LIBRARYREWRITES_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Replaces every `r = posix_memalign(pp, a, n)` of \p F by
///
///     valid = a is a power of two and a >= sizeof(void *)
///     q     = valid ? memalign(a, n) : null
///     *pp   = q ? q : *pp               (only when q is not null)
///     r     = !valid ? EINVAL : q ? 0 : ENOMEM
///
/// which is what posix_memalign does, adds the store after each modf, and
/// restates stream extractions into floating-point values and complex calls.
/// Returns true when \p F changed.
bool rewriteLibraryCalls(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_LIBRARYREWRITES_H
