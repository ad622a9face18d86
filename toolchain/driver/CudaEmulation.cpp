//===- CudaEmulation.cpp - Building CUDA files with -fcuda-emulate --------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "CudaEmulation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/SymbolicFile.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace enzyme::driver {

/// The user's arguments without the spans in \p Drop, with each input
/// replaced by what \p Replace returns for it (nothing drops it).
std::vector<std::string> rebuildArguments(
    const CommandLineScan &Scan,
    std::initializer_list<const std::vector<ArgumentSpan> *> Drop,
    function_ref<std::vector<std::string>(const InputArgument &)> Replace) {
  std::vector<int> Owner(Scan.ClangArgs.size(), -1); // -2: dropped
  for (const std::vector<ArgumentSpan> *Spans : Drop)
    for (const ArgumentSpan &Span : *Spans)
      for (unsigned I = Span.Begin; I < Span.End; ++I)
        Owner[I] = -2;
  for (size_t N = 0; N < Scan.Inputs.size(); ++N)
    for (unsigned I = Scan.Inputs[N].At.Begin; I < Scan.Inputs[N].At.End; ++I)
      Owner[I] = N;

  std::vector<std::string> Result;
  for (size_t I = 0; I < Scan.ClangArgs.size(); ++I) {
    if (Owner[I] == -2)
      continue;
    if (Owner[I] < 0) {
      Result.push_back(Scan.ClangArgs[I]);
      continue;
    }
    const InputArgument &Input = Scan.Inputs[Owner[I]];
    if (I != Input.At.Begin)
      continue;
    std::vector<std::string> With = Replace(Input);
    Result.insert(Result.end(), With.begin(), With.end());
  }
  return Result;
}

namespace {

/// An input as it stood, with its `-x` language made explicit (the `-x`
/// options themselves are dropped when rebuilding).
std::vector<std::string> asWritten(const InputArgument &Input) {
  if (!Input.Language)
    return {Input.Path};
  return {"-x", *Input.Language, Input.Path, "-x", "none"};
}

std::string tempPath(const CudaEmulationRequest &R, size_t Index,
                     StringRef Input, StringRef Suffix) {
  SmallString<256> Path(R.TempDir);
  sys::path::append(Path, std::to_string(Index) + "-" +
                              sys::path::stem(Input).str() + Suffix.str());
  return std::string(Path);
}

void append(std::vector<std::string> &To, ArrayRef<std::string> What) {
  To.insert(To.end(), What.begin(), What.end());
}

/// The toolkit version clang tells the device compilation, which picks the
/// kernel launch interface. Clang passes it only when it links libdevice,
/// so without libdevice the driver does, capped as clang caps it at the
/// newest version it knows.
std::string sdkVersion(unsigned Encoded) {
  constexpr unsigned NewestKnownToClang = 12050;
  if (Encoded == 0 || Encoded > NewestKnownToClang)
    Encoded = NewestKnownToClang;
  return std::to_string(Encoded / 1000) + "." +
         std::to_string(Encoded % 1000 / 10);
}

/// The symbol every retargeted device module references.
constexpr const char *RegistrationSymbol = "__cudaemu_register_module";

bool referencesRegistration(const object::Binary &File) {
  if (const auto *Archive = dyn_cast<object::Archive>(&File)) {
    Error Err = Error::success();
    bool Found = false;
    for (const object::Archive::Child &Member : Archive->children(Err)) {
      Expected<std::unique_ptr<object::Binary>> Binary = Member.getAsBinary();
      if (!Binary) {
        consumeError(Binary.takeError());
        continue;
      }
      if (referencesRegistration(**Binary)) {
        Found = true;
        break;
      }
    }
    consumeError(std::move(Err));
    return Found;
  }
  const auto *Symbols = dyn_cast<object::SymbolicFile>(&File);
  if (!Symbols)
    return false;
  for (const object::BasicSymbolRef &Symbol : Symbols->symbols()) {
    Expected<uint32_t> Flags = Symbol.getFlags();
    if (!Flags) {
      consumeError(Flags.takeError());
      continue;
    }
    if (!(*Flags & object::BasicSymbolRef::SF_Undefined))
      continue;
    SmallString<64> Name;
    raw_svector_ostream OS(Name);
    if (Error E = Symbol.printName(OS)) {
      consumeError(std::move(E));
      continue;
    }
    if (Name == RegistrationSymbol)
      return true;
  }
  return false;
}

} // namespace

/// Options that choose how a GPU build links device code across files,
/// which emulation does its own way (retarget/Relocatable.cpp).
static bool isDeviceLinkOption(StringRef Arg) {
  return Arg == "--offload-new-driver" || Arg == "--no-offload-new-driver" ||
         Arg == "-fgpu-rdc" || Arg == "-fno-gpu-rdc";
}

static std::vector<std::string>
withoutDeviceLinkOptions(std::vector<std::string> Args) {
  llvm::erase_if(Args, isDeviceLinkOption);
  return Args;
}

std::vector<std::string>
withoutCudaRuntimeLibraries(const CommandLineScan &Scan) {
  return withoutDeviceLinkOptions(rebuildArguments(
      Scan, {&Scan.CudaRuntimeLibraries}, [](const InputArgument &Input) {
        return std::vector<std::string>{Input.Path};
      }));
}

std::vector<std::string>
emulationRuntimeLinkArguments(const std::string &RuntimeLibrary) {
  return {RuntimeLibrary, "-lstdc++", "-lm", "-lpthread"};
}

bool linksEmulatedObjects(const CommandLineScan &Scan) {
  for (const InputArgument &Input : Scan.Inputs) {
    if (Input.Cuda)
      continue;
    StringRef Ext = sys::path::extension(Input.Path);
    if (Ext != ".o" && Ext != ".a" && Ext != ".obj")
      continue;
    Expected<object::OwningBinary<object::Binary>> File =
        object::createBinary(Input.Path);
    if (!File) {
      consumeError(File.takeError());
      continue;
    }
    if (referencesRegistration(*File->getBinary()))
      return true;
  }
  return false;
}

Expected<std::vector<ClangCommand>>
planCudaEmulation(const CudaEmulationRequest &R) {
  const CommandLineScan &Scan = *R.Scan;
  bool Links = Scan.links();
  for (StringRef Arg : Scan.ClangArgs)
    if (Arg == "--cuda-device-only" || Arg == "--offload-device-only" ||
        Arg == "--cuda-host-only" || Arg == "--offload-host-only")
      return createStringError(
          "-fcuda-emulate builds the host and device code of each CUDA file "
          "together and does not support '%s'",
          Arg.str().c_str());
  bool Relocatable = Scan.RelocatableDeviceCode;
  if (Scan.Output && !Links && Scan.NumSourceInputs > 1)
    return createStringError(
        "cannot specify -o when generating multiple output files");

  std::vector<ClangCommand> Steps;
  std::vector<std::string> Objects(Scan.Inputs.size());
  for (size_t N = 0; N < Scan.Inputs.size(); ++N) {
    const InputArgument &Input = Scan.Inputs[N];
    if (!Input.Cuda)
      continue;
    std::string DeviceBitcode = tempPath(R, N, Input.Path, "-device.bc");
    std::string HostBitcode = tempPath(R, N, Input.Path, "-kernels.bc");
    std::string GpuBinary = tempPath(R, N, Input.Path, "-id.bin");
    auto OnlyThis = [&](const InputArgument &Other) {
      return &Other == &Input
                 ? std::vector<std::string>{"-x", "cuda", Input.Path}
                 : std::vector<std::string>{};
    };

    // 1. The device compilation, as for a GPU, stopping at bitcode. Without
    // libdevice its math calls stay calls, which the runtime answers with
    // the host's libm.
    ClangCommand Device = R.Base;
    append(Device.Before, R.DeviceCompileArgs);
    append(Device.Before, R.CudaCompileArgs);
    Device.User = rebuildArguments(Scan,
                                   {&Scan.LanguageOptions, &Scan.OutputOptions,
                                    &Scan.StageOptions, &Scan.DependencyOptions,
                                    &Scan.CudaRuntimeLibraries},
                                   OnlyThis);
    Device.User = withoutDeviceLinkOptions(std::move(Device.User));
    // Clang names static kernels and variables of relocatable device code
    // after the compilation's id, which both sides must share.
    std::string CompilationId =
        utohexstr(xxh3_64bits(arrayRefFromStringRef(Input.Path)));
    if (Relocatable)
      append(Device.Before, {"-fgpu-rdc", "-cuid=" + CompilationId});
    Device.After = {"--cuda-device-only",
                    "-nocudalib",
                    "-Xclang",
                    "-target-sdk-version=" + sdkVersion(R.CudaVersion),
                    "-emit-llvm",
                    "-c",
                    "-o",
                    DeviceBitcode};
    Steps.push_back(std::move(Device));

    // 2. Device code to host code.
    ClangCommand Retarget;
    Retarget.Program = R.RetargetTool;
    Retarget.Environment = R.Base.Environment;
    Retarget.User = {DeviceBitcode, "-o", HostBitcode, "--id-file=" + GpuBinary,
                     "--cuda-version=" + std::to_string(R.CudaVersion)};
    if (Scan.WantsDebugInfo)
      Retarget.User.push_back("--keep-debug-info");
    if (Relocatable)
      Retarget.User.push_back("--relocatable");
    Steps.push_back(std::move(Retarget));

    // 3. The host compilation, with the kernels linked in before it
    // optimises, so one object holds both (and a fat LTO object both
    // bitcodes).
    ClangCommand Host = R.Base;
    append(Host.Before, R.HostCompileArgs);
    append(Host.Before, R.CudaCompileArgs);
    Host.After = {
        "--cuda-host-only", "-Xclang", "-fcuda-include-gpubinary", "-Xclang",
        GpuBinary,          "-Xclang", "-mlink-bitcode-file",      "-Xclang",
        HostBitcode};
    if (Relocatable)
      append(Host.After, {"-fgpu-rdc", "-Xclang", "-cuid=" + CompilationId});
    if (Links) {
      Objects[N] = tempPath(R, N, Input.Path, ".o");
      Host.User =
          rebuildArguments(Scan,
                           {&Scan.LanguageOptions, &Scan.OutputOptions,
                            &Scan.StageOptions, &Scan.CudaRuntimeLibraries},
                           OnlyThis);
      append(Host.After, {"-c", "-o", Objects[N]});
    } else {
      Host.User = rebuildArguments(
          Scan, {&Scan.LanguageOptions, &Scan.CudaRuntimeLibraries}, OnlyThis);
    }
    Host.User = withoutDeviceLinkOptions(std::move(Host.User));
    Steps.push_back(std::move(Host));
  }

  // Sources of other languages compile as they would have; without a link
  // they need a command of their own.
  bool OtherSources = any_of(
      Scan.Inputs, [](const InputArgument &Input) { return !Input.Cuda; });
  if (!Links && !OtherSources)
    return Steps;
  ClangCommand Final = R.Base;
  append(Final.Before, Links ? R.LinkArgs : R.HostCompileArgs);
  Final.User = rebuildArguments(
      Scan, {&Scan.LanguageOptions, &Scan.CudaRuntimeLibraries},
      [&](const InputArgument &Input) {
        if (!Input.Cuda)
          return asWritten(Input);
        if (!Links)
          return std::vector<std::string>{};
        return std::vector<std::string>{Objects[&Input - Scan.Inputs.data()]};
      });
  Final.User = withoutDeviceLinkOptions(std::move(Final.User));
  if (Links)
    Final.After = emulationRuntimeLinkArguments(R.RuntimeLibrary);
  Steps.push_back(std::move(Final));
  return Steps;
}

} // namespace enzyme::driver
