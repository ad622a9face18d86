//===- UntypedCopyGuards.cpp - Copies whose contents nothing types --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/UntypedCopyGuards.h"

#include "Core/RuntimeLibrary.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

void checkUntypedCopyShadows(IRBuilder<> &B, Value *DstShadow, Value *SrcShadow,
                             Value *Bytes, const Function &Primal,
                             const DebugLoc &Loc) {
  Module &M = *B.GetInsertBlock()->getModule();
  auto [Name, Where] = createReportSubject(B, Primal, Loc, "enzyme.copy");
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_untyped_copy_check"),
               {DstShadow, SrcShadow ? SrcShadow : Null,
                B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()), Name, Where});
}

} // namespace enzyme
