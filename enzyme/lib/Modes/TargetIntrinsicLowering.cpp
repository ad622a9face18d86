//===- TargetIntrinsicLowering.cpp - x86 SIMD intrinsics as generic IR ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/TargetIntrinsicLowering.h"

#include "Core/GpuTarget.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace enzyme {

/// hadd/hsub(a, b): within each 128-bit lane, the sums (differences) of
/// adjacent pairs of a, then of b: for <4 x double>, {a0+a1, b0+b1, a2+a3,
/// b2+b3}.
static Value *lowerHorizontal(IRBuilder<> &B, Value *A, Value *Bv,
                              bool Subtract) {
  auto *Ty = cast<FixedVectorType>(A->getType());
  unsigned N = Ty->getNumElements();
  unsigned PerLane = 128 / Ty->getScalarSizeInBits();
  SmallVector<int, 16> Even, Odd;
  for (unsigned Lane = 0; Lane < N / PerLane; ++Lane)
    for (unsigned Source = 0; Source < 2; ++Source)
      for (unsigned J = 0; J < PerLane / 2; ++J) {
        int First = Source * N + Lane * PerLane + 2 * J;
        Even.push_back(First);
        Odd.push_back(First + 1);
      }
  Value *L = B.CreateShuffleVector(A, Bv, Even);
  Value *R = B.CreateShuffleVector(A, Bv, Odd);
  return Subtract ? B.CreateFSub(L, R) : B.CreateFAdd(L, R);
}

void lowerTargetVectorIntrinsics(Function &F) {
  SmallVector<IntrinsicInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    IRBuilder<> B(II);
    Value *A = II->getNumOperands() > 2 ? II->getArgOperand(0) : nullptr;
    Value *Bv = II->getNumOperands() > 2 ? II->getArgOperand(1) : nullptr;
    Value *Lowered = nullptr;
    switch (II->getIntrinsicID()) {
    case Intrinsic::x86_sse3_hadd_pd:
    case Intrinsic::x86_sse3_hadd_ps:
    case Intrinsic::x86_avx_hadd_pd_256:
    case Intrinsic::x86_avx_hadd_ps_256:
      Lowered = lowerHorizontal(B, A, Bv, /*Subtract=*/false);
      break;
    case Intrinsic::x86_sse3_hsub_pd:
    case Intrinsic::x86_sse3_hsub_ps:
    case Intrinsic::x86_avx_hsub_pd_256:
    case Intrinsic::x86_avx_hsub_ps_256:
      Lowered = lowerHorizontal(B, A, Bv, /*Subtract=*/true);
      break;
    // x86's max(a, b) is a > b ? a : b (b when either is NaN, or both
    // zeros); min likewise with <.
    case Intrinsic::x86_sse2_max_pd:
    case Intrinsic::x86_sse_max_ps:
    case Intrinsic::x86_avx_max_pd_256:
    case Intrinsic::x86_avx_max_ps_256:
      Lowered = B.CreateSelect(B.CreateFCmpOGT(A, Bv), A, Bv);
      break;
    case Intrinsic::x86_sse2_min_pd:
    case Intrinsic::x86_sse_min_ps:
    case Intrinsic::x86_avx_min_pd_256:
    case Intrinsic::x86_avx_min_ps_256:
      Lowered = B.CreateSelect(B.CreateFCmpOLT(A, Bv), A, Bv);
      break;
    // NVPTX's loads through the read-only cache (`__ldg`) and of values
    // uniform across a warp: loads of global memory that the kernel does
    // not write, as LLVM 20 upgrades them (the backend still selects
    // ld.global.nc for them).
    case Intrinsic::nvvm_ldg_global_i:
    case Intrinsic::nvvm_ldg_global_f:
    case Intrinsic::nvvm_ldg_global_p:
    case Intrinsic::nvvm_ldu_global_i:
    case Intrinsic::nvvm_ldu_global_f:
    case Intrinsic::nvvm_ldu_global_p: {
      Value *Global = A;
      if (A->getType()->getPointerAddressSpace() != GlobalAddressSpace)
        Global = B.CreateAddrSpaceCast(
            A, PointerType::get(B.getContext(), GlobalAddressSpace));
      auto *Alignment = dyn_cast<ConstantInt>(Bv);
      LoadInst *Load = B.CreateAlignedLoad(
          II->getType(), Global,
          Alignment && isPowerOf2_64(Alignment->getZExtValue())
              ? MaybeAlign(Alignment->getZExtValue())
              : MaybeAlign());
      Load->setMetadata(LLVMContext::MD_invariant_load,
                        MDNode::get(B.getContext(), {}));
      Lowered = Load;
      break;
    }
    default:
      break;
    }
    if (!Lowered)
      continue;
    Lowered->takeName(II);
    II->replaceAllUsesWith(Lowered);
    II->eraseFromParent();
  }
}

} // namespace enzyme
