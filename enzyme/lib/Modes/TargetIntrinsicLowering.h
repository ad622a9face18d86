//===- TargetIntrinsicLowering.h - x86 SIMD intrinsics as generic IR -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Libraries' packet code reaches the engine with a few x86 intrinsics that
/// LLVM does not turn into generic IR: horizontal additions and
/// subtractions (Eigen's reductions with -march=native) and x86's min/max.
/// The prepared copy of a function gets their generic equivalent
/// (shufflevector and fadd/fsub, fcmp and select), which both generators
/// differentiate with their ordinary rules. So do NVPTX's loads through the
/// read-only cache (`__ldg`, `llvm.nvvm.ldg.global.*`) and `ldu`: invariant
/// loads of global memory.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_TARGETINTRINSICLOWERING_H
#define ENZYME_MODES_TARGETINTRINSICLOWERING_H

namespace llvm {
class Function;
} // namespace llvm

namespace enzyme {

/// Rewrites the x86 and NVPTX intrinsics above in \p F as generic IR.
void lowerTargetVectorIntrinsics(llvm::Function &F);

} // namespace enzyme

#endif // ENZYME_MODES_TARGETINTRINSICLOWERING_H
