//===- CommandLineScan.h - What a clang command line asks for ---*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads a clang command line with clang's own option table, so that options
/// taking values (`-o x.c`, `-x cuda`, `-MF dep.d`) are never mistaken for
/// inputs, and separates out the driver's own `-fenzyme*` options.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_DRIVER_COMMANDLINESCAN_H
#define ENZYME_TOOLCHAIN_DRIVER_COMMANDLINESCAN_H

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace enzyme::driver {

/// A run of arguments in CommandLineScan::ClangArgs: [Begin, End).
struct ArgumentSpan {
  unsigned Begin = 0, End = 0;
};

/// An input file, and the `-x` language in force where it appears.
struct InputArgument {
  ArgumentSpan At;
  std::string Path;
  std::optional<std::string> Language;
  bool Cuda = false;
  /// C, C++, CUDA or Objective-C source.
  bool CFamily = false;
};

/// The facts about one command line that decide what the driver adds.
struct CommandLineScan {
  /// Arguments for clang: the user's, minus the options the driver consumed.
  std::vector<std::string> ClangArgs;

  /// `-fenzyme` / `-fno-enzyme`: the last one wins.
  bool EnzymeEnabled = false;
  /// `-fenzyme-trace`: print where the plugin ran.
  bool TracePipeline = false;
  /// `-fenzyme-plugin=<path>`: overrides the plugin next to the driver.
  std::optional<std::string> PluginOverride;
  /// `-fcuda-emulate` / `-fno-cuda-emulate`: run CUDA kernels on the CPU.
  bool CudaEmulate = false;

  /// `-fgpu-rdc` / `-fno-gpu-rdc`: relocatable device code, whose device
  /// functions, variables and kernels other CUDA files may use.
  bool RelocatableDeviceCode = false;
  /// `--offload-new-driver` / `--no-offload-new-driver`: links run
  /// clang-linker-wrapper, which registers the kernels and links device
  /// code.
  bool OffloadNewDriver = false;
  /// `--cuda-host-only` (`--offload-host-only`): no device compilation.
  bool HostOnly = false;

  /// The user asked for debug information (any `-g` option but `-g0`).
  bool WantsDebugInfo = false;

  /// `--version` (or `-dumpversion`-like queries that print and exit).
  bool PrintVersion = false;
  /// `-###`: clang prints the commands instead of running them.
  bool PrintCommandsOnly = false;
  /// `-v`: clang prints the commands it runs.
  bool Verbose = false;

  /// The invocation stops before producing an object file (`-E`, `-S`,
  /// `-fsyntax-only`, `-M`, `-emit-llvm`...).
  bool StopsBeforeObject = false;
  /// The invocation produces objects but does not link (`-c`).
  bool StopsBeforeLink = false;
  /// Number of inputs (source files, objects, `-l` libraries).
  unsigned NumInputs = 0;
  /// Number of inputs that are compiled (not objects or libraries).
  unsigned NumSourceInputs = 0;
  /// An input is compiled as CUDA (`.cu` or `-x cuda`).
  bool CompilesCuda = false;
  /// An input is C, C++, CUDA or Objective-C source (by extension or `-x`):
  /// clang parses it, so the attribute plugin applies.
  bool CompilesCFamily = false;

  /// Where inputs and the options a multi-step build replaces stand in
  /// ClangArgs (the CUDA emulation builds each `.cu` file in three steps).
  std::vector<InputArgument> Inputs;
  std::vector<ArgumentSpan> LanguageOptions;      // -x
  std::vector<ArgumentSpan> OutputOptions;        // -o
  std::vector<ArgumentSpan> StageOptions;         // -c, -S, -E, -emit-llvm
  std::vector<ArgumentSpan> DependencyOptions;    // -M, -MD, -MF, -MT, ...
  std::vector<ArgumentSpan> CudaRuntimeLibraries; // -lcudart, -lcuda, ...
  /// The value of the last `-o`.
  std::optional<std::string> Output;

  /// True when clang will run the linker.
  bool links() const {
    return NumInputs != 0 && !StopsBeforeObject && !StopsBeforeLink &&
           !PrintVersion;
  }
  /// True when clang will write object files or a linked program.
  bool producesObjects() const { return NumInputs != 0 && !StopsBeforeObject; }
};

/// Scans \p Args (response files already expanded, no argv[0]). Fails on
/// `-fenzyme-*` options the driver does not know.
llvm::Expected<CommandLineScan>
scanCommandLine(llvm::ArrayRef<std::string> Args);

} // namespace enzyme::driver

#endif // ENZYME_TOOLCHAIN_DRIVER_COMMANDLINESCAN_H
