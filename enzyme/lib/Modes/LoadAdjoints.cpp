//===- LoadAdjoints.cpp - Adjoints of reads in parallel code --------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reverse of a load adds its adjoint into the shadow of what it read.
/// Where threads share memory that addition is atomic (SharedAdjoints.h),
/// except in a region's body for reads that no two threads share
/// (Analysis/ParallelLoopReads.h): exclusive reads add plainly, privatized
/// reads add into a per-thread accumulator that the end of the reverse
/// pass adds to the shadow once.
///
//===----------------------------------------------------------------------===//

#include "Core/OpenMPRuntime.h"
#include "Core/RuntimeLibrary.h"
#include "Modes/FunctionDifferentiator.h"
#include "Modes/SharedAdjoints.h"

using namespace llvm;

namespace enzyme {

void FunctionDifferentiator::accumulateLoadAdjoint(LoadInst &Load,
                                                   Value *Shadow, Value *D,
                                                   IRBuilder<> &B) {
  bool Atomic = readIsShared(Load.getPointerOperand(), ThreadsShareMemory);
  ReadSharing Sharing =
      Atomic && LoopReads ? LoopReads->sharing(Load) : ReadSharing::Shared;
  // Plain where the whole team's points passed their checks.
  if (Sharing == ReadSharing::Exclusive && LoopReads->checkedByTeam(Load)) {
    accumulateAdjointUnless(B, Load.getType(), Shadow, D,
                            adjointAlignment(Load), teamAllowsPlainAdjoints(),
                            &PeerGroups);
    return;
  }
  // Plain where the guard computed in the body holds.
  if (Sharing == ReadSharing::Exclusive)
    if (Value *Guard = LoopReads->conditionOf(Load)) {
      accumulateAdjointUnless(B, Load.getType(), Shadow, D,
                              adjointAlignment(Load), primal(Guard),
                              &PeerGroups);
      return;
    }
  if (Sharing != ReadSharing::Privatized) {
    accumulateAdjoint(B, Load.getType(), Shadow, D, adjointAlignment(Load),
                      Atomic && Sharing == ReadSharing::Shared, &PeerGroups);
    return;
  }
  auto &[Sum, Address] = PrivateAdjoints[LoopReads->accumulatorOf(Load)];
  if (!Sum) {
    IRBuilder<> Entry(RevEntry, RevEntry->begin());
    Sum = Entry.CreateAlloca(Load.getType(), nullptr,
                             Load.getName() + ".private.adj");
    Entry.CreateStore(Constant::getNullValue(Load.getType()), Sum);
    Address = Entry.CreateAlloca(B.getPtrTy(), nullptr,
                                 Load.getName() + ".private.shadow");
    Entry.CreateStore(Constant::getNullValue(B.getPtrTy()), Address);
  }
  B.CreateStore(addAdjoints(B, B.CreateLoad(Load.getType(), Sum), D), Sum);
  B.CreateStore(Shadow, Address);
}

Value *FunctionDifferentiator::teamAllowsPlainAdjoints() {
  if (!TeamAllowsPlain) {
    // Asked once, before the reverse pass adds anything: the forward team
    // has finished, and every thread of this one gets the same answer.
    IRBuilder<> Entry(RevEntry, RevEntry->getFirstInsertionPt());
    Value *Allowed = Entry.CreateCall(getRuntimeFunction(
        *Pair.Reverse->getParent(), "__enzyme_rt_omp_plain_adjoints_allowed"));
    TeamAllowsPlain = Entry.CreateICmpNE(
        Allowed, ConstantInt::get(Allowed->getType(), 0), "team.plain");
  }
  return TeamAllowsPlain;
}

void FunctionDifferentiator::flushPrivateAdjoints(IRBuilder<> &B) {
  if (PrivateAdjoints.empty())
    return;
  // Other threads may still add plainly into exclusive elements; an
  // address alias analysis could not tell apart from this one waits until
  // they are done.
  if (LoopReads->flushesAfterBarrier()) {
    Value *Loc = LoopReads->barrierLocation();
    emitTeamBarrier(
        B, Loc ? Loc : emitUnknownOpenMPLocation(*Pair.Reverse->getParent()));
  }
  Function *Rev = B.GetInsertBlock()->getParent();
  for (auto &[Load, Slots] : PrivateAdjoints) {
    auto [Sum, Address] = Slots;
    // A thread that never ran the read has no shadow address to add to.
    Value *Shadow = B.CreateLoad(B.getPtrTy(), Address);
    BasicBlock *Add = BasicBlock::Create(B.getContext(), "flush.adj", Rev);
    BasicBlock *Next = BasicBlock::Create(B.getContext(), "flush.next", Rev);
    B.CreateCondBr(B.CreateIsNotNull(Shadow), Add, Next);
    B.SetInsertPoint(Add);
    accumulateAdjoint(B, Load->getType(), Shadow,
                      B.CreateLoad(Load->getType(), Sum),
                      adjointAlignment(*Load), /*Atomic=*/true);
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
}

} // namespace enzyme
