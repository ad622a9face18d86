//===- StubParameters.h - How a kernel's host stub passes its parameters -===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A kernel's host stub takes the kernel's parameters as the host ABI
/// passes them, which is not always one stub parameter per kernel
/// parameter: on x86-64 a struct of at most 16 bytes arrives in pieces (an
/// `i64` holding a float and an int, two doubles, a `<2 x float>`), a larger
/// one as a `byval` pointer, a C++ class that is not trivially copyable
/// as the address of a temporary, an empty class not at all. The stub puts each
/// kernel parameter in memory (a local it stores the pieces into, or the byval
/// copy) and passes cudaLaunchKernel an array of their addresses, one per
/// kernel parameter. The custom derivatives of the stub
/// (Plugin/LaunchGradients.cpp) read that layout here, so that they pass the
/// derivative kernels the same memory and the shadows in the same shape.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_PLUGIN_STUBPARAMETERS_H
#define ENZYME_PLUGIN_STUBPARAMETERS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace enzyme {

/// One stub parameter stored into the memory of a kernel parameter.
struct StubPiece {
  unsigned StubParam;
  uint64_t Offset;
};

/// How a kernel's host stub passes one of the kernel's parameters.
struct StubParameter {
  /// The type of the memory the launch reads the argument from.
  llvm::Type *MemoryType = nullptr;
  /// The stub parameter that is that memory (a struct passed byval, or
  /// by reference: see Indirect).
  std::optional<unsigned> ByValue;
  /// The host ABI passes the struct by reference (a C++ class with a copy
  /// constructor or destructor of its own): the stub has its address but
  /// not its type, and MemoryType is an empty struct. Such a struct can
  /// hold no float whose adjoint the host would add up (the run-time
  /// checks that the device code agrees).
  bool Indirect = false;
  /// Otherwise, the stub parameters the stub stores into a local of
  /// MemoryType, at their offsets.
  llvm::SmallVector<StubPiece, 2> Pieces;

  bool isStruct() const;
};

/// The kernel parameters of \p Stub, in order, as its call of
/// cudaLaunchKernel passes them; nullopt where the stub's code does not
/// have that shape, or a piece is not a pointer, an integer, a float, a
/// double or a vector of floats.
std::optional<llvm::SmallVector<StubParameter, 8>>
readStubParameters(llvm::Function &Stub);

} // namespace enzyme

#endif // ENZYME_PLUGIN_STUBPARAMETERS_H
