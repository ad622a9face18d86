//===- ShadowScopes.cpp - Shadow memory never overlaps primal memory ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/ShadowScopes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"

using namespace llvm;

namespace enzyme {

namespace {
enum class Side { Unknown, Primal, Shadow };
} // namespace

/// Which side every object \p Ptr may point into belongs to.
static Side sideOf(const Value *Ptr, ArrayRef<bool> IsShadowArg) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  Side Result = Side::Unknown;
  for (const Value *Object : Objects) {
    // Vector mode: lane k of an argument's N shadows is that argument's.
    if (auto *Lane = dyn_cast<ExtractValueInst>(Object))
      Object = Lane->getAggregateOperand();
    auto *Arg = dyn_cast<Argument>(Object);
    if (!Arg || Arg->getArgNo() >= IsShadowArg.size())
      return Side::Unknown;
    Side S = IsShadowArg[Arg->getArgNo()] ? Side::Shadow : Side::Primal;
    if (Result != Side::Unknown && S != Result)
      return Side::Unknown;
    Result = S;
  }
  return Result;
}

/// The side of every pointer \p I accesses memory through, if they agree.
static Side accessSide(const Instruction &I, ArrayRef<bool> IsShadowArg) {
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return sideOf(Load->getPointerOperand(), IsShadowArg);
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return sideOf(Store->getPointerOperand(), IsShadowArg);
  if (auto *Mem = dyn_cast<MemIntrinsic>(&I)) {
    Side Dest = sideOf(Mem->getRawDest(), IsShadowArg);
    if (auto *Transfer = dyn_cast<MemTransferInst>(Mem))
      if (sideOf(Transfer->getRawSource(), IsShadowArg) != Dest)
        return Side::Unknown;
    return Dest;
  }
  return Side::Unknown;
}

void markShadowDisjointFromPrimal(Function &F, ArrayRef<bool> IsShadowArg) {
  if (none_of(IsShadowArg, [](bool B) { return B; }))
    return;
  LLVMContext &Ctx = F.getContext();
  MDBuilder MDB(Ctx);
  MDNode *Domain =
      MDB.createAnonymousAliasScopeDomain("enzyme.shadow-vs-primal");
  MDNode *PrimalScope = MDNode::get(
      Ctx, {MDB.createAnonymousAliasScope(Domain, "enzyme.primal")});
  MDNode *ShadowScope = MDNode::get(
      Ctx, {MDB.createAnonymousAliasScope(Domain, "enzyme.shadow")});
  for (Instruction &I : instructions(F)) {
    Side S = accessSide(I, IsShadowArg);
    if (S == Side::Unknown)
      continue;
    MDNode *Own = S == Side::Shadow ? ShadowScope : PrimalScope;
    MDNode *Other = S == Side::Shadow ? PrimalScope : ShadowScope;
    I.setMetadata(
        LLVMContext::MD_alias_scope,
        MDNode::concatenate(I.getMetadata(LLVMContext::MD_alias_scope), Own));
    I.setMetadata(
        LLVMContext::MD_noalias,
        MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias), Other));
  }
}

} // namespace enzyme
