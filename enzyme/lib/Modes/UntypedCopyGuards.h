//===- UntypedCopyGuards.h - Copies whose contents nothing types -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reverse mode must know what a copy of memory with derivatives moves:
/// floats move their adjoints back, integers and addresses must not be
/// added up. Where the type analysis (Analysis/MemoryTypes.h) finds nothing
/// that says, the engine does not guess. The augmented function stops the
/// program with a message (runtime/UntypedCopyReport.c) if the copy runs:
/// code that is compiled into a derivative but never runs in it (the clone
/// path of std::function) costs nothing, and a copy that does run gets a
/// clear error instead of a wrong derivative. Targets without the run-time
/// (GPUs) get the compile-time error (describeUntypedCopy) instead.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_MODES_UNTYPEDCOPYGUARDS_H
#define ENZYME_MODES_UNTYPEDCOPYGUARDS_H

#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace enzyme {

/// Emits, before \p Generated (the augmented function's copy of a memory
/// transfer or integer store of \p Length bytes), a call that stops the
/// program with a message naming \p Primal and the copy's location.
void reportUntypedCopyAtRunTime(llvm::Instruction &Generated,
                                std::optional<uint64_t> Length,
                                const llvm::Function &Primal);

} // namespace enzyme

#endif // ENZYME_MODES_UNTYPEDCOPYGUARDS_H
