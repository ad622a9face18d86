//===- CudaEmulation.h - Building CUDA files with -fcuda-emulate -*- C++
//-*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With `-fcuda-emulate`, each CUDA input is built in three steps instead of
/// clang's one: the device compilation as for a GPU but stopping at bitcode
/// (after the AD plugin when `-fenzyme` is on), `enzyme-cuda-retarget` to
/// turn that module into host code, and the host compilation, which links
/// the retargeted kernels into the file's object and registers them with a
/// stand-in GPU binary. The link then takes the emulation runtime instead
/// of libcudart. Everything else on the command line passes through.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_TOOLCHAIN_DRIVER_CUDAEMULATION_H
#define ENZYME_TOOLCHAIN_DRIVER_CUDAEMULATION_H

#include "CommandLineScan.h"
#include "Driver.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace enzyme::driver {

struct CudaEmulationRequest {
  const CommandLineScan *Scan = nullptr;
  /// The clang program, environment and what the driver adds before the
  /// user's arguments, for each kind of step.
  ClangCommand Base;
  std::vector<std::string> DeviceCompileArgs;
  std::vector<std::string> HostCompileArgs;
  std::vector<std::string> LinkArgs;
  /// The CUDA toolkit arguments (path, compatibility layer, architecture).
  std::vector<std::string> CudaCompileArgs;
  unsigned CudaVersion = 0;
  std::string RetargetTool;
  std::string RuntimeLibrary;
  /// Where intermediate files go; the driver removes it afterwards.
  std::string TempDir;
};

/// The user's arguments without the spans in \p Drop, with each input
/// replaced by what \p Replace returns for it (nothing drops it).
std::vector<std::string> rebuildArguments(
    const CommandLineScan &Scan,
    std::initializer_list<const std::vector<ArgumentSpan> *> Drop,
    llvm::function_ref<std::vector<std::string>(const InputArgument &)>
        Replace);

/// True when an object or archive this command links was built with
/// `-fcuda-emulate` (it registers kernels with the emulation runtime), so
/// the link needs the emulation runtime even if the flag is missing there,
/// as on the link lines CMake writes for CUDA.
bool linksEmulatedObjects(const CommandLineScan &Scan);

/// The user's arguments without the CUDA runtime libraries (`-lcudart`,
/// `-lcudart_static`, `-lcudadevrt`, `-lcuda`), which an emulated program
/// does not link.
std::vector<std::string>
withoutCudaRuntimeLibraries(const CommandLineScan &Scan);

/// What the link of an emulated program adds after the user's arguments:
/// the emulation runtime \p RuntimeLibrary and what it needs.
std::vector<std::string>
emulationRuntimeLinkArguments(const std::string &RuntimeLibrary);

/// The commands to run, in order; each must succeed before the next.
llvm::Expected<std::vector<ClangCommand>>
planCudaEmulation(const CudaEmulationRequest &Request);

} // namespace enzyme::driver

#endif // ENZYME_TOOLCHAIN_DRIVER_CUDAEMULATION_H
