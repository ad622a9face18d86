//===- InlineAsmOperands.cpp - The operands of an asm statement -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Core/InlineAsmOperands.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace enzyme {

std::optional<AsmOperands> readAsmOperands(const CallBase &Call) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm)
    return std::nullopt;
  AsmOperands Ops;
  unsigned Arg = 0;
  for (const InlineAsm::ConstraintInfo &C : Asm->ParseConstraints()) {
    if (C.Type == InlineAsm::isOutput) {
      Ops.Outputs.push_back({C.isIndirect, Arg});
      Arg += C.isIndirect;
    } else if (C.Type == InlineAsm::isInput) {
      if (Arg >= Call.arg_size())
        return std::nullopt;
      Value *In = Call.getArgOperand(Arg++);
      Ops.Inputs.push_back(In);
      // A tied input's code is the number of its output ("0").
      unsigned Out = 0;
      if (!C.Codes.empty() && !C.Codes[0].empty() && isDigit(C.Codes[0][0])) {
        if (StringRef(C.Codes[0]).getAsInteger(10, Out) ||
            Out >= Ops.Outputs.size() || Ops.Outputs[Out].Tied)
          return std::nullopt;
        Ops.Outputs[Out].Tied = In;
      }
    }
  }
  if (Arg != Call.arg_size())
    return std::nullopt;
  return Ops;
}

} // namespace enzyme
