//===- LaunchedKernels.cpp - Kernels launched from differentiated code ----===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Host code that launches kernels is differentiated with derivative kernels
/// that the device compilation defines, so both compilations of a CUDA file
/// must know, before either runs, which kernels that host code launches
/// (docs/cuda.md). The driver finds out by compiling the host side once more
/// at -O0 with the engine in scan mode, and passes the list to both.
///
//===----------------------------------------------------------------------===//

#include "CudaEmulation.h"
#include "Driver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace llvm;

namespace enzyme::driver {

Expected<std::vector<std::string>> Driver::derivativeKernelArguments(
    const CommandLineScan &Scan, const std::string &Clang,
    ArrayRef<std::string> CudaCompileArgs,
    const decltype(ClangCommand::Environment) &Environment) const {
  if (!Scan.EnzymeEnabled || !Scan.CompilesCuda || Scan.PrintCommandsOnly ||
      Scan.PrintVersion)
    return std::vector<std::string>{};
  ClangCommand Base;
  Base.Program = Clang;
  if (CPlusPlus)
    Base.Before.push_back("--driver-mode=g++");
  CommandLineScan HostOnly = Scan;
  HostOnly.StopsBeforeObject = true;
  if (Error E = addEnzymeArguments(HostOnly, Clang, Base))
    return std::move(E);
  Expected<std::string> Attributes = attributesPluginArgument();
  if (!Attributes)
    return Attributes.takeError();
  Base.Before.push_back(*Attributes);
  Base.Before.insert(Base.Before.end(), CudaCompileArgs.begin(),
                     CudaCompileArgs.end());
  Base.Environment = Environment;

  SmallString<128> ListFile;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("enzyme-kernels", "txt", ListFile))
    return createStringError("cannot create a temporary file: " + EC.message());
  std::set<std::string> Kernels, TangentKernels, OptionalTangentKernels,
      ExternalKernels;
  for (const InputArgument &Input : Scan.Inputs) {
    if (!Input.Cuda)
      continue;
    ClangCommand Command = Base;
    Command.User = rebuildArguments(
        Scan,
        {&Scan.LanguageOptions, &Scan.OutputOptions, &Scan.StageOptions,
         &Scan.DependencyOptions, &Scan.CudaRuntimeLibraries},
        [&](const InputArgument &Other) {
          return &Other == &Input
                     ? std::vector<std::string>{"-x", "cuda", Input.Path}
                     : std::vector<std::string>{};
        });
    Command.After = {"--cuda-host-only",
                     "-O0",
                     "-emit-llvm",
                     "-c",
                     "-o",
                     "/dev/null",
                     "-mllvm",
                     ("-enzyme-list-launched-kernels=" + ListFile).str()};
    sys::fs::remove(ListFile);
    // A file that does not compile reports its errors from the compilation
    // proper, once.
    if (execute(Command, Scan, /*Quiet=*/true) != 0)
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> List =
        MemoryBuffer::getFile(ListFile);
    if (!List)
      continue;
    SmallVector<StringRef, 8> Lines;
    (*List)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    // Kernels of reverse-mode requests, `forward NAME` for those of
    // forward-mode ones, `forward-if-possible NAME` for those a launcher
    // registration names, `external NAME` for those other files can
    // launch (LaunchedKernelScan.cpp).
    for (StringRef Line : Lines) {
      StringRef Kernel = Line.trim();
      if (Kernel.consume_front("external "))
        ExternalKernels.insert(Kernel.trim().str());
      else if (Kernel.consume_front("forward-if-possible "))
        OptionalTangentKernels.insert(Kernel.trim().str());
      else if (Kernel.consume_front("forward "))
        TangentKernels.insert(Kernel.trim().str());
      else
        Kernels.insert(Kernel.str());
    }
  }
  sys::fs::remove(ListFile);
  std::vector<std::string> Arguments;
  if (!Kernels.empty())
    Arguments.insert(Arguments.end(), {"-mllvm", "-enzyme-derivative-kernels=" +
                                                     join(Kernels, ",")});
  if (!TangentKernels.empty())
    Arguments.insert(
        Arguments.end(),
        {"-mllvm", "-enzyme-tangent-kernels=" + join(TangentKernels, ",")});
  // A kernel that one file's requests need and another's launcher names is
  // required.
  for (const std::string &Kernel : TangentKernels)
    OptionalTangentKernels.erase(Kernel);
  if (!OptionalTangentKernels.empty())
    Arguments.insert(Arguments.end(),
                     {"-mllvm", "-enzyme-optional-tangent-kernels=" +
                                    join(OptionalTangentKernels, ",")});
  // With relocatable device code, host code in other files may launch this
  // file's kernels: they get derivative kernels where they can be
  // differentiated, which their launches in other files find at the link.
  if (Scan.RelocatableDeviceCode && !ExternalKernels.empty())
    Arguments.insert(Arguments.end(),
                     {"-mllvm", "-enzyme-relocatable-kernels=" +
                                    join(ExternalKernels, ",")});
  return Arguments;
}

} // namespace enzyme::driver
