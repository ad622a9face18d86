//===- ToolLocator.h - Finding clang, lld and the plugin --------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds everything the driver hands to clang relative to the driver's own
/// location, so that an installed tree keeps working after it is moved.
///
/// Layout (the build tree mirrors it):
///   <prefix>/bin/enzyme-clang[++]
///   <prefix>/lib/{ClangEnzyme,LLDEnzyme,LLVMEnzyme}-19.so
///   <prefix>/lib/enzyme/cuda-compat/
///   <prefix>/include/enzyme/{enzyme.h,enzyme}
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_DRIVER_TOOLLOCATOR_H
#define ENZYME_TOOLCHAIN_DRIVER_TOOLLOCATOR_H

#include "llvm/Support/Error.h"

#include <string>

namespace enzyme::driver {

class ToolLocator {
public:
  /// \p Argv0 and \p MainAddr locate the running driver executable.
  ToolLocator(const char *Argv0, void *MainAddr);

  /// The installation prefix: the parent of the driver's `bin/`.
  const std::string &prefix() const { return Prefix; }

  /// clang 19: `$ENZYME_CLANG`, a `clang-19`/`clang` bundled next to the
  /// driver, the LLVM the toolchain was built against, then `PATH`.
  llvm::Expected<std::string> findClang() const;
  /// ld.lld 19: `$ENZYME_LLD`, next to the driver, next to \p ClangPath's
  /// real location, then `PATH`.
  llvm::Expected<std::string> findLLD(const std::string &ClangPath) const;
  /// The plugin file named \p Name (e.g. `ClangEnzyme-19.so`) in `lib/`.
  llvm::Expected<std::string> findPlugin(llvm::StringRef Name) const;

  std::string includeDir() const;
  std::string cudaCompatDir() const;
  /// The CUDA emulation's tool and runtime library (`-fcuda-emulate`).
  std::string cudaRetargetTool() const;
  std::string cudaEmulationLibrary() const;

private:
  std::string Prefix;
};

} // namespace enzyme::driver

#endif // ENZYME_TOOLCHAIN_DRIVER_TOOLLOCATOR_H
