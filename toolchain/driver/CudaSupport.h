//===- CudaSupport.h - CUDA toolkit detection and compatibility -*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decides which extra clang arguments a CUDA compilation needs. Clang 19
/// understands CUDA toolkits up to 12.x; newer toolkits (CUDA 13 ships in
/// /usr/local/cuda here) need the compatibility layer under
/// `<prefix>/lib/enzyme/cuda-compat`: replacement headers and a `fatbinary`
/// wrapper that speaks the new command line. Toolkits that clang supports
/// natively are used as they are.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_DRIVER_CUDASUPPORT_H
#define ENZYME_TOOLCHAIN_DRIVER_CUDASUPPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace enzyme::driver {

/// What the driver knows about the command line when it asks for CUDA help.
struct CudaRequest {
  /// The user's arguments after response-file expansion (no argv[0]).
  llvm::ArrayRef<std::string> UserArgs;
  /// True when an input is compiled as CUDA (`.cu` file or `-x cuda`).
  bool CompilesCuda = false;
  /// True when this invocation runs the linker.
  bool Links = false;
  /// `-fcuda-emulate`: kernels run on the CPU, so neither ptxas, libdevice
  /// nor the CUDA runtime library is needed.
  bool Emulate = false;
  /// The installed compatibility layer (`<prefix>/lib/enzyme/cuda-compat`).
  std::string CompatDir;
};

/// Arguments to add to the clang command line.
struct CudaArguments {
  /// Added before the user's arguments when compiling CUDA.
  std::vector<std::string> Compile;
  /// Added after the user's arguments when linking a program with CUDA.
  std::vector<std::string> Link;
  /// Environment variables (name, value) to set in clang's environment,
  /// replacing any inherited value. The compatibility layer's `fatbinary`
  /// reads ENZYME_CUDA_PATH to find the real tool, and PATH puts the wrapper
  /// first for clang-linker-wrapper, which ignores `-B`.
  std::vector<std::pair<std::string, std::string>> Environment;
  /// The toolkit's version as CUDART_VERSION spells it (13000 for 13.0).
  unsigned EncodedVersion = 0;
  /// The libdevice bitcode the device compilation links, or empty when it
  /// links none (-nocudalib, emulation, host-only compilations).
  std::string Libdevice;
};

/// Plans the extra arguments for \p Request. Returns an error with a one-line,
/// actionable message when CUDA is compiled but no usable toolkit is found.
llvm::Expected<CudaArguments> planCudaArguments(const CudaRequest &Request);

} // namespace enzyme::driver

#endif // ENZYME_TOOLCHAIN_DRIVER_CUDASUPPORT_H
