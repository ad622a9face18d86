//===- GpuTarget.cpp - Whether a module is GPU device code ----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/GpuTarget.h"

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
