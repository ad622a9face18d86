//===- GpuTarget.cpp - Whether a module is GPU device code ----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GpuTarget.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace enzyme {

bool readsThreadPosition(const Instruction &I) {
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return false;
  switch (Call->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_le:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_ge:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt:
  case Intrinsic::amdgcn_workitem_id_x:
  case Intrinsic::amdgcn_workitem_id_y:
  case Intrinsic::amdgcn_workitem_id_z:
  case Intrinsic::amdgcn_workgroup_id_x:
  case Intrinsic::amdgcn_workgroup_id_y:
  case Intrinsic::amdgcn_workgroup_id_z:
    return true;
  default:
    return false;
  }
}

bool isBlockBarrier(const Instruction &I) {
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return false;
  switch (Call->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier0:
  case Intrinsic::nvvm_barrier0_popc:
  case Intrinsic::nvvm_barrier0_and:
  case Intrinsic::nvvm_barrier0_or:
    return true;
  default:
    return false;
  }
}

bool isThreadBarrier(const Instruction &I) {
  if (isBlockBarrier(I))
    return true;
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  if (!Call)
    return false;
  switch (Call->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier:
  case Intrinsic::nvvm_barrier_n:
  case Intrinsic::nvvm_barrier_sync:
  case Intrinsic::nvvm_barrier_sync_cnt:
  case Intrinsic::nvvm_bar_sync:
  case Intrinsic::nvvm_bar_warp_sync:
  case Intrinsic::amdgcn_s_barrier:
    return true;
  default:
    return false;
  }
}

/// \p Scope, a synchronisation scope, stays within one block (or warp, or
/// thread).
static bool isWithinBlock(const Instruction &I, SyncScope::ID Scope) {
  if (Scope == SyncScope::SingleThread)
    return true;
  SmallVector<StringRef, 8> Names;
  I.getContext().getSyncScopeNames(Names);
  if (Scope >= Names.size())
    return false;
  StringRef Name = Names[Scope];
  Name.consume_back("-one-as");
  return Name == "block" || Name == "workgroup" || Name == "wavefront" ||
         Name == "singlethread";
}

/// \p Text, PTX, orders memory at GPU or system scope.
static bool orderingAsm(StringRef Text) {
  for (StringRef Order : {".acquire.", ".release.", ".acq_rel.", ".sc."})
    for (StringRef Scope : {"gpu", "sys"})
      if (Text.contains((Order + Scope).str()))
        return true;
  return Text.contains("membar.gl") || Text.contains("membar.sys");
}

std::string describeCrossBlockOrdering(const Instruction &I) {
  auto Stronger = [](AtomicOrdering O) { return isStrongerThanMonotonic(O); };
  if (auto *Fence = dyn_cast<FenceInst>(&I))
    return isWithinBlock(I, Fence->getSyncScopeID())
               ? ""
               : "a fence beyond the block (__threadfence)";
  if (auto *Intrinsic = dyn_cast<IntrinsicInst>(&I)) {
    switch (Intrinsic->getIntrinsicID()) {
    case Intrinsic::nvvm_membar_gl:
    case Intrinsic::nvvm_membar_sys:
      return "__threadfence()";
    default:
      return "";
    }
  }
  // Read-modify-writes are left out: clang gives CUDA's atomicAdd, atomicCAS
  // and the like sequentially consistent ordering in IR, which the NVPTX
  // backend emits as relaxed PTX atomics. A flag is published and read with
  // ordered stores and loads.
  std::optional<SyncScope::ID> Scope = getAtomicSyncScopeID(&I);
  bool Ordered = false;
  if (auto *Load = dyn_cast<LoadInst>(&I))
    Ordered = Load->isAtomic() && Stronger(Load->getOrdering());
  else if (auto *Store = dyn_cast<StoreInst>(&I))
    Ordered = Store->isAtomic() && Stronger(Store->getOrdering());
  if (Ordered && Scope && !isWithinBlock(I, *Scope))
    return "an atomic load or store with acquire or release ordering beyond "
           "the block";
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand());
        Asm && orderingAsm(Asm->getAsmString()))
      return "inline assembly that orders memory beyond the block ('" +
             Asm->getAsmString() +
             "': cooperative groups' grid synchronisation or a device-scope "
             "atomic)";
  return "";
}

static constexpr const char *ShadowSpaceQuery = "enzyme.shadow.space";

Value *emitShadowSpaceQuery(IRBuilder<> &B, Intrinsic::ID Query, Value *Ptr,
                            const Twine &Name) {
  CallInst *Call = B.CreateIntrinsic(Query, {}, {Ptr}, nullptr, Name);
  Call->setMetadata(ShadowSpaceQuery, MDNode::get(B.getContext(), {}));
  return Call;
}

bool isShadowSpaceQuery(const Instruction &I) {
  return I.getMetadata(ShadowSpaceQuery) != nullptr;
}

void emitMirroredBarrier(IRBuilder<> &B, const CallBase &Barrier,
                         function_ref<Value *(Value *)> Primal) {
  Intrinsic::ID ID = cast<IntrinsicInst>(Barrier).getIntrinsicID();
  switch (ID) {
  case Intrinsic::nvvm_barrier0_popc:
  case Intrinsic::nvvm_barrier0_and:
  case Intrinsic::nvvm_barrier0_or:
    B.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
    return;
  default: {
    // The same barrier, with the same id, count or mask.
    SmallVector<Value *, 2> Args;
    for (Value *Arg : Barrier.args())
      Args.push_back(Primal(Arg));
    B.CreateIntrinsic(ID, {}, Args);
    return;
  }
  }
}

} // namespace enzyme
