//===- CustomGradientPair.h - A pair around a user's gradient --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A function registered with `__enzyme_register_gradient` is not
/// differentiated: its pair (ReverseModeGenerator.h) calls the user's
/// functions instead. The user's functions have one fixed shape (every
/// pointer followed by its shadow, the adjoint of a float result, the tape;
/// gradients of every float parameter), the engine's pair one shape per
/// call-site signature; the pair adapts one to the other and keeps the
/// user's tape on the engine's tape in between.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_CUSTOMGRADIENTPAIR_H
#define ENZYME_MODES_CUSTOMGRADIENTPAIR_H

namespace enzyme {

struct CustomGradient;
struct DifferentiationFailure;
struct ReversePair;
struct ReverseSignature;
class TapeBuilder;

/// Builds the bodies of \p Pair for \p Sig from the user's \p Gradient;
/// false (with \p Failure filled) when the call site asks for what the
/// user's functions do not provide.
bool buildCustomGradientPair(const ReverseSignature &Sig,
                             const CustomGradient &Gradient,
                             const ReversePair &Pair, const TapeBuilder &Tape,
                             DifferentiationFailure &Failure);

} // namespace enzyme

#endif // ENZYME_MODES_CUSTOMGRADIENTPAIR_H
