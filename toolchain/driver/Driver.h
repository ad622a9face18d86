//===- Driver.h - enzyme-clang / enzyme-clang++ ----------------*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The drivers are thin wrappers around clang 19: every argument clang
/// accepts passes through untouched, and `-fenzyme` adds what automatic
/// differentiation needs (the plugin in every compilation, fat LTO objects,
/// an LTO link through ld.lld with the plugin, the user headers).
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_DRIVER_DRIVER_H
#define ENZYME_TOOLCHAIN_DRIVER_DRIVER_H

#include "CommandLineScan.h"
#include "ToolLocator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace enzyme::driver {

/// The clang command to run, split around the user's arguments so that
/// additions land where clang expects them (link inputs after objects).
struct ClangCommand {
  std::string Program;
  std::vector<std::string> Before;
  std::vector<std::string> User;
  std::vector<std::string> After;
  /// Environment variables to set for clang, replacing inherited ones.
  std::vector<std::pair<std::string, std::string>> Environment;

  std::vector<std::string> argv() const;
};

class Driver {
public:
  Driver(const char *Argv0, void *MainAddr);

  /// Runs the driver on the arguments after argv[0]; returns the exit code.
  int run(llvm::ArrayRef<const char *> Args);

private:
  llvm::Expected<ClangCommand> plan(const CommandLineScan &Scan) const;
  /// The plugin file named \p Name (`ClangEnzyme`, `LLDEnzyme`), or the one
  /// `-fenzyme-plugin=` names.
  llvm::Expected<std::string> findPlugin(const CommandLineScan &Scan,
                                         llvm::StringRef Name) const;
  llvm::Error addEnzymeArguments(const CommandLineScan &Scan,
                                 const std::string &Clang,
                                 ClangCommand &Command) const;
  /// `-fplugin=` for Enzyme's source attributes.
  llvm::Expected<std::string> attributesPluginArgument() const;
  /// The `-mllvm` arguments that name the kernels launched from
  /// differentiated host code in the CUDA inputs to both compilations
  /// (LaunchedKernels.cpp); empty when there are none.
  llvm::Expected<std::vector<std::string>> derivativeKernelArguments(
      const CommandLineScan &Scan, const std::string &Clang,
      llvm::ArrayRef<std::string> CudaCompileArgs,
      const decltype(ClangCommand::Environment) &Environment) const;
  /// Builds CUDA inputs in steps, with kernels that run on the CPU.
  int runCudaEmulation(const CommandLineScan &Scan) const;
  /// Runs \p Command; \p Quiet: with its output discarded.
  int execute(const ClangCommand &Command, const CommandLineScan &Scan,
              bool Quiet = false) const;
  int error(const llvm::Twine &Message) const;

  std::string Name;
  bool CPlusPlus;
  ToolLocator Tools;
};

} // namespace enzyme::driver

#endif // ENZYME_TOOLCHAIN_DRIVER_DRIVER_H
