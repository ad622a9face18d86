//===- CudaSupport.cpp - CUDA toolkit detection and compatibility ---------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the CUDA toolkit a compilation will use, reads its version and plans
/// the clang arguments that make it work:
///
/// - CUDA 12.x and older are what clang 19 was written against; they only get
///   `--cuda-path` (so clang and the link line agree on the toolkit).
/// - CUDA 13 and newer removed `texture_fetch_functions.h`, replaced
///   fatbinary's `--image=profile=` option by `--image3=kind=,sm=`, moved
///   Thrust/CUB/libcu++ to `include/cccl` and dropped every GPU older than
///   sm_75. They get the compatibility layer and a default GPU architecture
///   that the toolkit still supports.
/// - Linking CUDA adds the runtime library (`-lcudart`) and its directory.
///
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VersionTuple.h"

#include <optional>

using namespace llvm;

namespace enzyme::driver {

namespace {

/// The newest CUDA major version clang 19 handles without help. Clang 19
/// warns about 12.6+, but those toolkits still have every file it needs.
constexpr unsigned NewestNativeCudaMajor = 12;

/// Clang 19 refuses CUDA older than 7.0.
constexpr unsigned OldestCudaMajor = 7;

/// The oldest GPU that CUDA 13 compiles for (Turing). Its PTX, which clang
/// embeds next to the cubin, is JIT-compiled by the driver on newer GPUs, so
/// programs built with this default run on every GPU CUDA 13 supports.
constexpr unsigned OldestCuda13SmVersion = 75;

/// A CUDA toolkit and where its path came from, so that error messages can
/// say what to fix.
struct CudaToolkit {
  std::string Root;
  /// "--cuda-path", an environment variable, "ptxas on PATH", or empty for a
  /// standard install location.
  std::string Origin;
  /// Known once inspectToolkit() has accepted the toolkit.
  VersionTuple Version;
};

/// Returns the value of the last `<Prefix><value>` argument, if any.
std::optional<StringRef> lastJoinedValue(ArrayRef<std::string> Args,
                                         StringRef Prefix) {
  std::optional<StringRef> Value;
  for (StringRef Arg : Args)
    if (Arg.consume_front(Prefix))
      Value = Arg;
  return Value;
}

bool hasArg(ArrayRef<std::string> Args, ArrayRef<StringRef> Spellings) {
  return any_of(Args,
                [&](StringRef Arg) { return is_contained(Spellings, Arg); });
}

/// The GPU architectures the user asked for (`--cuda-gpu-arch=` is clang's
/// older spelling of `--offload-arch=`; both take comma-separated lists).
SmallVector<StringRef> userGpuArchs(ArrayRef<std::string> Args) {
  SmallVector<StringRef> Archs;
  for (StringRef Arg : Args) {
    if (!Arg.consume_front("--cuda-gpu-arch=") &&
        !Arg.consume_front("--offload-arch="))
      continue;
    SmallVector<StringRef> Parts;
    Arg.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    Archs.append(Parts.begin(), Parts.end());
  }
  return Archs;
}

std::string joinPath(StringRef Base, std::initializer_list<StringRef> Parts) {
  SmallString<256> Path(Base);
  for (StringRef Part : Parts)
    sys::path::append(Path, Part);
  return std::string(Path);
}

bool isFile(const Twine &Path) { return sys::fs::is_regular_file(Path); }

/// The toolkit the user chose, in clang's order of authority: an explicit
/// `--cuda-path=`, then the conventional environment variables, then the
/// standard install locations.
std::optional<CudaToolkit> chooseToolkit(ArrayRef<std::string> Args) {
  if (std::optional<StringRef> Path = lastJoinedValue(Args, "--cuda-path="))
    return CudaToolkit{Path->str(), "--cuda-path", {}};

  if (!hasArg(Args, {"--cuda-path-ignore-env"}))
    for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
      if (std::optional<std::string> Path = sys::Process::GetEnv(Var))
        if (!Path->empty())
          return CudaToolkit{*Path, Var, {}};

  for (StringRef Root : {"/usr/local/cuda", "/usr/lib/cuda"})
    if (sys::fs::is_directory(Root))
      return CudaToolkit{Root.str(), "", {}};

  // A toolkit installed elsewhere but on PATH: <root>/bin/ptxas.
  if (ErrorOr<std::string> Ptxas = sys::findProgramByName("ptxas")) {
    SmallString<256> Real;
    if (!sys::fs::real_path(*Ptxas, Real)) {
      StringRef Root = sys::path::parent_path(sys::path::parent_path(Real));
      if (isFile(joinPath(Root, {"include", "cuda.h"})))
        return CudaToolkit{Root.str(), "ptxas on PATH", {}};
    }
  }
  return std::nullopt;
}

/// Reads "cuda": {"version": "13.0.88"} from version.json (CUDA 11.1+).
std::optional<VersionTuple> versionFromJson(StringRef Root) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(joinPath(Root, {"version.json"}));
  if (!Buffer)
    return std::nullopt;
  Expected<json::Value> Doc = json::parse((*Buffer)->getBuffer());
  if (!Doc) {
    consumeError(Doc.takeError());
    return std::nullopt;
  }
  const json::Object *Top = Doc->getAsObject();
  const json::Object *Cuda = Top ? Top->getObject("cuda") : nullptr;
  std::optional<StringRef> Text =
      Cuda ? Cuda->getString("version") : std::nullopt;
  VersionTuple Version;
  if (!Text || Version.tryParse(*Text))
    return std::nullopt;
  return Version;
}

/// Reads "CUDA Version 11.0.228" from version.txt (CUDA 11.0 and older).
std::optional<VersionTuple> versionFromText(StringRef Root) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(joinPath(Root, {"version.txt"}));
  if (!Buffer)
    return std::nullopt;
  StringRef Text = (*Buffer)->getBuffer().trim();
  VersionTuple Version;
  if (!Text.consume_front("CUDA Version ") || Version.tryParse(Text))
    return std::nullopt;
  return Version;
}

/// Reads `#define CUDA_VERSION 13000` from include/cuda.h: toolkits built
/// from NVIDIA's pip wheels ship neither version file.
std::optional<VersionTuple> versionFromHeader(StringRef Root) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(joinPath(Root, {"include", "cuda.h"}));
  if (!Buffer)
    return std::nullopt;
  SmallVector<StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#define"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("CUDA_VERSION"))
      continue;
    unsigned Encoded;
    if (Line.trim().getAsInteger(10, Encoded))
      continue;
    return VersionTuple(Encoded / 1000, (Encoded % 1000) / 10);
  }
  return std::nullopt;
}

/// What the user can do about a toolkit that cannot be used.
std::string fixHint(const CudaToolkit &Toolkit) {
  StringRef Origin = Toolkit.Origin;
  if (Origin == "--cuda-path")
    return "point --cuda-path at a CUDA installation (the directory with bin/ "
           "and include/)";
  if (Origin == "CUDA_PATH" || Origin == "CUDA_HOME")
    return ("fix " + Origin + " or pass --cuda-path=<dir>").str();
  return "install the CUDA toolkit or pass --cuda-path=<dir>";
}

/// Names a toolkit in error messages: its path and where that came from.
std::string describe(const CudaToolkit &Toolkit) {
  if (Toolkit.Origin.empty())
    return "'" + Toolkit.Root + "'";
  return "'" + Toolkit.Root + "' (from " + Toolkit.Origin + ")";
}

/// Accepts a toolkit that exists and whose version clang 19 can use, and
/// records that version.
Expected<CudaToolkit> inspectToolkit(CudaToolkit Toolkit) {
  StringRef Root = Toolkit.Root;
  if (!sys::fs::is_directory(Root))
    return createStringError(
        inconvertibleErrorCode(), "CUDA toolkit not found at %s: %s",
        describe(Toolkit).c_str(), fixHint(Toolkit).c_str());

  std::optional<VersionTuple> Version = versionFromJson(Root);
  if (!Version)
    Version = versionFromText(Root);
  if (!Version)
    Version = versionFromHeader(Root);
  if (!Version)
    return createStringError(
        inconvertibleErrorCode(),
        "%s is not a usable CUDA toolkit: it has no version.json, version.txt "
        "or include/cuda.h; %s",
        describe(Toolkit).c_str(), fixHint(Toolkit).c_str());

  if (Version->getMajor() < OldestCudaMajor)
    return createStringError(
        inconvertibleErrorCode(),
        "CUDA %s at %s is too old: clang 19 needs CUDA %u.0 or newer; %s",
        Version->getAsString().c_str(), describe(Toolkit).c_str(),
        OldestCudaMajor, fixHint(Toolkit).c_str());

  Toolkit.Version = *Version;
  return Toolkit;
}

/// Checks the files this compilation will run or link against, so a broken
/// toolkit fails here with one line rather than deep inside clang.
Error checkToolkitFiles(const CudaToolkit &Toolkit, const CudaRequest &Request,
                        bool NeedsCompat) {
  ArrayRef<std::string> Args = Request.UserArgs;
  bool HostOnly = Request.Emulate ||
                  hasArg(Args, {"--cuda-host-only", "--offload-host-only"});
  SmallVector<std::string, 3> Required;
  if (!HostOnly) {
    Required.push_back(joinPath(Toolkit.Root, {"bin", "ptxas"}));
    if (!hasArg(Args, {"-nocudalib", "-nogpulib"}))
      Required.push_back(
          joinPath(Toolkit.Root, {"nvvm", "libdevice", "libdevice.10.bc"}));
    if (NeedsCompat)
      Required.push_back(joinPath(Toolkit.Root, {"bin", "fatbinary"}));
  }
  for (const std::string &Path : Required)
    if (!isFile(Path))
      return createStringError(inconvertibleErrorCode(),
                               "CUDA toolkit at %s is incomplete: '%s' is "
                               "missing; %s",
                               describe(Toolkit).c_str(), Path.c_str(),
                               fixHint(Toolkit).c_str());

  if (NeedsCompat && !isFile(joinPath(Request.CompatDir, {"bin", "fatbinary"})))
    return createStringError(inconvertibleErrorCode(),
                             "CUDA compatibility layer missing at '%s': "
                             "reinstall the Enzyme toolchain",
                             Request.CompatDir.c_str());
  return Error::success();
}

/// Rejects GPUs the toolkit can no longer compile for; ptxas would otherwise
/// fail with "Value 'sm_52' is not defined for option 'gpu-name'".
Error checkGpuArchs(const CudaToolkit &Toolkit, ArrayRef<StringRef> Archs) {
  for (StringRef Arch : Archs) {
    StringRef Digits = Arch;
    if (!Digits.consume_front("sm_"))
      continue; // `native`, `all` and virtual architectures are clang's job.
    Digits = Digits.take_while(isDigit);
    unsigned SmVersion;
    if (Digits.getAsInteger(10, SmVersion) ||
        SmVersion >= OldestCuda13SmVersion)
      continue;
    return createStringError(
        inconvertibleErrorCode(),
        "GPU architecture '%s' is not supported by CUDA %s: pass "
        "--cuda-gpu-arch=sm_%u or newer, or --cuda-path=<dir> of an older "
        "CUDA toolkit",
        Arch.str().c_str(), Toolkit.Version.getAsString().c_str(),
        OldestCuda13SmVersion);
  }
  return Error::success();
}

/// The directory that holds libcudart; its name depends on how the toolkit
/// was packaged (runfile: lib64, pip wheels: lib).
std::optional<std::string> runtimeLibraryDir(StringRef Root) {
  for (std::string Dir : {joinPath(Root, {"lib64"}), joinPath(Root, {"lib"}),
                          joinPath(Root, {"targets", "x86_64-linux", "lib"})})
    if (isFile(joinPath(Dir, {"libcudart.so"})) ||
        isFile(joinPath(Dir, {"libcudart_static.a"})))
      return Dir;
  return std::nullopt;
}

Expected<std::vector<std::string>> planLink(const CudaToolkit &Toolkit,
                                            ArrayRef<std::string> Args) {
  std::vector<std::string> Link;
  // Users who pick a runtime themselves, or ask for no default libraries,
  // get exactly what they asked for.
  if (hasArg(Args,
             {"-lcudart", "-lcudart_static", "-nostdlib", "-nodefaultlibs"}))
    return Link;

  std::optional<std::string> LibDir = runtimeLibraryDir(Toolkit.Root);
  if (!LibDir)
    return createStringError(
        inconvertibleErrorCode(),
        "CUDA toolkit at %s has no CUDA runtime library (libcudart in lib64/ "
        "or lib/); %s",
        describe(Toolkit).c_str(), fixHint(Toolkit).c_str());
  Link.push_back("-L" + *LibDir);
  // The toolkit is rarely on the loader's path; let the program run as is.
  Link.push_back("-Wl,-rpath," + *LibDir);
  Link.push_back("-lcudart");
  return Link;
}

} // namespace

Expected<CudaArguments> planCudaArguments(const CudaRequest &Request) {
  CudaArguments Result;
  if (!Request.CompilesCuda)
    return Result;

  ArrayRef<std::string> Args = Request.UserArgs;
  std::optional<CudaToolkit> Candidate = chooseToolkit(Args);
  if (!Candidate) {
    // Nothing to find, but nothing needed either: leave it to clang.
    if (hasArg(Args, {"-nocudainc", "-nogpuinc"}) &&
        hasArg(Args, {"-nocudalib", "-nogpulib"}) && !Request.Links)
      return Result;
    return createStringError(
        inconvertibleErrorCode(),
        "CUDA toolkit not found (looked at CUDA_PATH, CUDA_HOME, "
        "/usr/local/cuda, /usr/lib/cuda and ptxas on PATH): install the CUDA "
        "toolkit or pass --cuda-path=<dir>");
  }

  Expected<CudaToolkit> Toolkit = inspectToolkit(std::move(*Candidate));
  if (!Toolkit)
    return Toolkit.takeError();

  bool NeedsCompat = Toolkit->Version.getMajor() > NewestNativeCudaMajor;
  Result.EncodedVersion = Toolkit->Version.getMajor() * 1000 +
                          Toolkit->Version.getMinor().value_or(0) * 10;
  if (Error E = checkToolkitFiles(*Toolkit, Request, NeedsCompat))
    return E;
  if (!Request.Emulate &&
      !hasArg(Args, {"-nocudalib", "-nogpulib", "--cuda-host-only",
                     "--offload-host-only"}))
    Result.Libdevice =
        joinPath(Toolkit->Root, {"nvvm", "libdevice", "libdevice.10.bc"});

  // Clang does not read CUDA_PATH/CUDA_HOME; name the toolkit we validated so
  // the compilation and the link line use the same one.
  if (Toolkit->Origin != "--cuda-path")
    Result.Compile.push_back("--cuda-path=" + Toolkit->Root);

  if (NeedsCompat) {
    SmallVector<StringRef> Archs = userGpuArchs(Args);
    if (Error E = checkGpuArchs(*Toolkit, Archs))
      return E;

    // -B makes clang run the wrapper instead of <cuda>/bin/fatbinary; ptxas
    // and the rest still come from the toolkit.
    Result.Compile.push_back("-B" + joinPath(Request.CompatDir, {"bin"}));
    if (!hasArg(Args, {"-nocudainc", "-nogpuinc"})) {
      // -idirafter only fills in headers the toolkit lacks, so a future
      // toolkit that ships them again wins.
      Result.Compile.push_back("-idirafter");
      Result.Compile.push_back(joinPath(Request.CompatDir, {"include"}));
      // nvcc adds this directory itself (see bin/nvcc.profile).
      std::string Cccl = joinPath(Toolkit->Root, {"include", "cccl"});
      if (sys::fs::is_directory(Cccl)) {
        Result.Compile.push_back("-isystem");
        Result.Compile.push_back(Cccl);
      }
    }
    // Clang would warn on every compilation that it does not know this
    // version; the compatibility layer is the answer to that warning.
    Result.Compile.push_back("-Wno-unknown-cuda-version");
    // Clang's default, sm_52, is gone from CUDA 13.
    if (Archs.empty())
      Result.Compile.push_back("--cuda-gpu-arch=sm_" +
                               std::to_string(OldestCuda13SmVersion));

    Result.Environment.emplace_back("ENZYME_CUDA_PATH", Toolkit->Root);
    // The wrapper first; the toolkit next, for tools that are looked up on
    // PATH once the new offload driver's --cuda-path names the layer.
    std::string Path = joinPath(Request.CompatDir, {"bin"}) + ":" +
                       joinPath(Toolkit->Root, {"bin"});
    // An empty PATH entry would mean the current directory; never add one.
    std::optional<std::string> Inherited = sys::Process::GetEnv("PATH");
    if (Inherited && !Inherited->empty())
      Path += ":" + *Inherited;
    Result.Environment.emplace_back("PATH", std::move(Path));
  }

  if (Request.Links && !Request.Emulate) {
    Expected<std::vector<std::string>> Link = planLink(*Toolkit, Args);
    if (!Link)
      return Link.takeError();
    Result.Link = std::move(*Link);
    // clang-linker-wrapper (--offload-new-driver) runs <cuda-path>/bin/
    // fatbinary itself and ignores -B; its last --cuda-path wins.
    if (NeedsCompat && hasArg(Args, {"--offload-new-driver"}))
      Result.Link.push_back("-Wl,--cuda-path=" + Request.CompatDir);
  }
  return Result;
}

} // namespace enzyme::driver
