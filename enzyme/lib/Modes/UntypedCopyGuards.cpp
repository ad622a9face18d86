//===- UntypedCopyGuards.cpp - Copies whose contents nothing types --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Modes/UntypedCopyGuards.h"

#include "Core/RuntimeLibrary.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace enzyme {

void reportUntypedCopyAtRunTime(Instruction &Generated,
                                std::optional<uint64_t> Length,
                                const Function &Primal) {
  Module &M = *Generated.getModule();
  IRBuilder<> B(&Generated);
  Value *Bytes = B.getInt64(Length.value_or(0));
  if (auto *Transfer = dyn_cast<MemTransferInst>(&Generated))
    Bytes = B.CreateZExtOrTrunc(Transfer->getLength(), B.getInt64Ty());
  auto [Name, Where] =
      createReportSubject(B, Primal, Generated.getDebugLoc(), "enzyme.copy");
  B.CreateCall(getRuntimeFunction(M, "__enzyme_rt_untyped_copy"),
               {Name, Where, Bytes});
}

} // namespace enzyme
