//===- VectorIntrinsics.h - SIMD intrinsics with derivatives ----*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The generic vector intrinsics that vectorised code (LLVM's vectorisers,
/// libraries' packet code) uses and that carry derivatives: reductions and
/// masked memory accesses. Like instructions, they are differentiated
/// structurally by each generator (ReverseVectorOps.cpp,
/// TangentVectorOps.cpp), not through the scalar math table.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_RULES_VECTORINTRINSICS_H
#define ENZYME_RULES_VECTORINTRINSICS_H

#include <optional>

namespace llvm {
class CallBase;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace enzyme {

enum class VectorIntrinsic {
  /// llvm.vector.reduce.fadd(start, v): start + sum of v.
  ReduceFAdd,
  /// llvm.vector.reduce.fmul(start, v): start * product of v.
  ReduceFMul,
  /// llvm.vector.reduce.{fmax,fmin,fmaximum,fminimum}(v): an element of v.
  ReduceFMaxMin,
  /// llvm.masked.load(p, align, mask, passthru).
  MaskedLoad,
  /// llvm.masked.store(v, p, align, mask).
  MaskedStore,
};

/// The kind of \p Call, if it is one of the vector intrinsics above on
/// floating-point vectors of fixed width.
std::optional<VectorIntrinsic>
classifyVectorIntrinsic(const llvm::CallBase &Call);

/// For a reduction to an element of \p Vec (fmax, fmin...) whose result is
/// \p Result: the <N x i1> mask that selects the first element equal to
/// it, where its derivative comes from.
llvm::Value *reductionWinner(llvm::IRBuilderBase &B, llvm::Value *Vec,
                             llvm::Value *Result);

/// For llvm.vector.reduce.fmul(start, v): the vector whose element i is
/// start times the product of v's other elements (the partial of the
/// result with respect to v[i]), computed without division.
llvm::Value *productOfOthers(llvm::IRBuilderBase &B, llvm::Value *Start,
                             llvm::Value *Vec);

} // namespace enzyme

#endif // ENZYME_RULES_VECTORINTRINSICS_H
