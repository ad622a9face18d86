//===- ReverseVectorOps.cpp - Reverse of SIMD operations ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse of the operations vectorised code is made of, beyond the
/// elementwise ones of ReversePass.cpp: shufflevector, reductions and
/// masked loads and stores (Rules/VectorIntrinsics.h). Their adjoints stay
/// vector operations: a shuffle's adjoint is a shuffle back (one per
/// repetition of a source element), a sum's adjoint a splat.
///
//===----------------------------------------------------------------------===//

#include "Modes/FunctionDifferentiator.h"

#include "Modes/SharedAdjoints.h"
#include "Rules/VectorIntrinsics.h"

#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace enzyme {

/// The part of \p D, the adjoint of a shuffle with \p Mask, that reaches
/// its operand \p Operand (0 or 1) of type \p OpTy: element j of it sums
/// D's elements k with Mask[k] naming j. A source element picked r times
/// takes r shuffles of D, each picking one occurrence.
static Value *shuffleOperandAdjoint(IRBuilder<> &B, Value *D,
                                    ArrayRef<int> Mask, unsigned Operand,
                                    FixedVectorType *OpTy) {
  unsigned N = OpTy->getNumElements();
  unsigned ResultN = Mask.size();
  SmallVector<SmallVector<int, 2>, 16> Uses(N);
  for (auto [K, M] : enumerate(Mask))
    if (M >= 0 && unsigned(M) / N == Operand)
      Uses[M % N].push_back(K);
  // Index ResultN picks element 0 of the second shuffle operand: a zero.
  Value *Zero = zeroAdjoint(D->getType());
  Value *Sum = nullptr;
  for (unsigned Round = 0;; ++Round) {
    SmallVector<int, 16> Pick(N, ResultN);
    bool Any = false;
    for (unsigned J = 0; J < N; ++J)
      if (Round < Uses[J].size()) {
        Pick[J] = Uses[J][Round];
        Any = true;
      }
    if (!Any)
      break;
    Value *Part = B.CreateShuffleVector(D, Zero, Pick);
    Sum = Sum ? B.CreateFAdd(Sum, Part) : Part;
  }
  return Sum ? Sum : zeroAdjoint(OpTy);
}

bool FunctionDifferentiator::reverseShuffle(ShuffleVectorInst &Shuffle,
                                            Value *D, IRBuilder<> &B) {
  auto *OpTy = dyn_cast<FixedVectorType>(Shuffle.getOperand(0)->getType());
  if (!OpTy || !isa<FixedVectorType>(Shuffle.getType()))
    return fail(&Shuffle, "cannot differentiate a 'shufflevector' of "
                          "scalable vectors");
  ArrayRef<int> Mask = Shuffle.getShuffleMask();
  for (unsigned Operand = 0; Operand < 2; ++Operand) {
    Value *Source = Shuffle.getOperand(Operand);
    if (!Activity.isActive(Source))
      continue;
    addAdjoint(Source,
               mapLanes(B, Sig.Width, {D}, OpTy,
                        [&](ArrayRef<Value *> L) {
                          return shuffleOperandAdjoint(B, L[0], Mask, Operand,
                                                       OpTy);
                        }),
               B);
  }
  return true;
}

void FunctionDifferentiator::collectVectorIntrinsicNeeds(
    CallBase &Call, VectorIntrinsic Kind, SmallVectorImpl<NeededValue> &Needs) {
  switch (Kind) {
  case VectorIntrinsic::ReduceFAdd:
    return;
  case VectorIntrinsic::ReduceFMul:
    if (Activity.isActive(&Call)) {
      Needs.push_back(primalOf(Call.getArgOperand(0)));
      Needs.push_back(primalOf(Call.getArgOperand(1)));
    }
    return;
  case VectorIntrinsic::ReduceFMaxMin:
    if (Activity.isActive(&Call)) {
      Needs.push_back(primalOf(Call.getArgOperand(0)));
      Needs.push_back(primalOf(&Call));
    }
    return;
  case VectorIntrinsic::MaskedLoad:
    if (Activity.isActive(&Call)) {
      Needs.push_back(shadowOf(Call.getArgOperand(0)));
      Needs.push_back(primalOf(Call.getArgOperand(2)));
    }
    return;
  case VectorIntrinsic::MaskedStore:
    if (Activity.isShadowed(Call.getArgOperand(1))) {
      Needs.push_back(shadowOf(Call.getArgOperand(1)));
      Needs.push_back(primalOf(Call.getArgOperand(3)));
    }
    return;
  }
}

bool FunctionDifferentiator::reverseVectorIntrinsic(CallBase &Call,
                                                    VectorIntrinsic Kind,
                                                    IRBuilder<> &B) {
  unsigned Width = Sig.Width;
  if (Kind == VectorIntrinsic::MaskedStore) {
    // The stored lanes' adjoints go to the value; they start over at zero.
    Value *Val = Call.getArgOperand(0), *Ptr = Call.getArgOperand(1);
    if (!Activity.isShadowed(Ptr))
      return true;
    auto *VecTy = cast<FixedVectorType>(Val->getType());
    Align Alignment = cast<ConstantInt>(Call.getArgOperand(2))->getAlignValue();
    Value *Mask = primal(Call.getArgOperand(3));
    Value *D =
        mapLanes(B, Width, {shadow(Ptr)}, VecTy, [&](ArrayRef<Value *> L) {
          Value *Lane = B.CreateMaskedLoad(VecTy, L[0], Alignment, Mask,
                                           Constant::getNullValue(VecTy));
          B.CreateMaskedStore(Constant::getNullValue(VecTy), L[0], Alignment,
                              Mask);
          return Lane;
        });
    addAdjoint(Val, D, B);
    return true;
  }
  if (!Activity.isActive(&Call))
    return true;
  Value *D = takeAdjoint(&Call, B);
  switch (Kind) {
  case VectorIntrinsic::ReduceFAdd: {
    Value *Vec = Call.getArgOperand(1);
    auto *VecTy = cast<FixedVectorType>(Vec->getType());
    addAdjoint(Call.getArgOperand(0), D, B);
    addAdjoint(Vec,
               mapLanes(B, Width, {D}, VecTy,
                        [&](ArrayRef<Value *> L) {
                          return B.CreateVectorSplat(VecTy->getNumElements(),
                                                     L[0]);
                        }),
               B);
    return true;
  }
  case VectorIntrinsic::ReduceFMul: {
    Value *Start = primal(Call.getArgOperand(0));
    Value *Vec = primal(Call.getArgOperand(1));
    auto *VecTy = cast<FixedVectorType>(Vec->getType());
    if (Activity.isActive(Call.getArgOperand(0))) {
      Value *Product =
          B.CreateFMulReduce(ConstantFP::get(Start->getType(), 1.0), Vec);
      addAdjoint(Call.getArgOperand(0),
                 scaleAdjoint(B, Instruction::FMul, D, Product, Call.getType()),
                 B);
    }
    if (Activity.isActive(Call.getArgOperand(1))) {
      Value *Others = productOfOthers(B, Start, Vec);
      addAdjoint(
          Call.getArgOperand(1),
          mapLanes(B, Width, {D}, VecTy,
                   [&](ArrayRef<Value *> L) {
                     return B.CreateFMul(
                         B.CreateVectorSplat(VecTy->getNumElements(), L[0]),
                         Others);
                   }),
          B);
    }
    return true;
  }
  case VectorIntrinsic::ReduceFMaxMin: {
    Value *Vec = Call.getArgOperand(0);
    auto *VecTy = cast<FixedVectorType>(Vec->getType());
    Value *Winner = reductionWinner(B, primal(Vec), primal(&Call));
    Value *Zero = zeroAdjoint(VecTy);
    addAdjoint(
        Vec,
        mapLanes(B, Width, {D}, VecTy,
                 [&](ArrayRef<Value *> L) {
                   return B.CreateSelect(
                       Winner,
                       B.CreateVectorSplat(VecTy->getNumElements(), L[0]),
                       Zero);
                 }),
        B);
    return true;
  }
  case VectorIntrinsic::MaskedLoad: {
    if (readIsShared(Call.getArgOperand(0), ThreadsShareMemory))
      return fail(&Call, "cannot differentiate a masked load of memory that "
                         "other GPU threads may read (its adjoints would need "
                         "atomic additions lane by lane)");
    // Loaded lanes' adjoints go to the memory, the others' to passthru.
    auto *VecTy = cast<FixedVectorType>(Call.getType());
    Align Alignment = cast<ConstantInt>(Call.getArgOperand(1))->getAlignValue();
    Value *Mask = primal(Call.getArgOperand(2));
    forEachLane(
        B, Width, {shadow(Call.getArgOperand(0)), D},
        [&](ArrayRef<Value *> L, unsigned) {
          Value *Old = B.CreateMaskedLoad(VecTy, L[0], Alignment, Mask,
                                          Constant::getNullValue(VecTy));
          B.CreateMaskedStore(B.CreateFAdd(Old, L[1]), L[0], Alignment, Mask);
        });
    Value *Zero = zeroAdjoint(VecTy);
    addAdjoint(Call.getArgOperand(3),
               mapLanes(B, Width, {D}, VecTy,
                        [&](ArrayRef<Value *> L) {
                          return B.CreateSelect(Mask, Zero, L[0]);
                        }),
               B);
    return true;
  }
  case VectorIntrinsic::MaskedStore:
    break;
  }
  return true;
}

} // namespace enzyme
