//===- InlineAsmOperands.h - The operands of an asm statement ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An inline assembly statement numbers its operands in its text ($0, $1...)
/// by its constraints: outputs first, then inputs; an input may be tied to an
/// output ("+r", or "0"), and an output may be in memory ("=m"), which takes
/// a pointer argument of the call. The engine (Modes/InlineAsmLowering.h)
/// and the CUDA emulation's retargeting both read statements through this.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CORE_INLINEASMOPERANDS_H
#define ENZYME_CORE_INLINEASMOPERANDS_H

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace enzyme {

/// The operands of an assembly statement, as its string numbers them.
struct AsmOperands {
  struct Output {
    bool Indirect;
    unsigned Arg; // The call's argument, for an output in memory.
    llvm::Value *Tied = nullptr;
  };
  llvm::SmallVector<Output, 2> Outputs;
  llvm::SmallVector<llvm::Value *, 4> Inputs;

  /// What operand \p N holds on entry: an input, or the input tied to
  /// output \p N; nullptr when neither.
  llvm::Value *valueOf(unsigned N) const {
    if (N < Outputs.size())
      return Outputs[N].Tied;
    N -= Outputs.size();
    return N < Inputs.size() ? Inputs[N] : nullptr;
  }
};

/// The operands of \p Call, or nullopt when \p Call is no inline assembly or
/// its constraints cannot be read.
std::optional<AsmOperands> readAsmOperands(const llvm::CallBase &Call);

} // namespace enzyme

#endif // ENZYME_CORE_INLINEASMOPERANDS_H
