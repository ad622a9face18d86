//===- FatbinaryWrapper.cpp - Clang 19 to CUDA 13 fatbinary adapter ------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Installed as `<prefix>/lib/enzyme/cuda-compat/bin/fatbinary`. Clang 19
/// describes each device image as
///
///   --image=profile=sm_80,file=a.cubin       (machine code)
///   --image=profile=compute_80,file=a.ptx    (PTX)
///
/// which CUDA 13's fatbinary no longer accepts; it wants
///
///   --image3=kind=elf,sm=80,file=a.cubin
///   --image3=kind=ptx,sm=80,file=a.ptx
///
/// This program rewrites those options, drops `--cuda` (CUDA 13 only makes
/// CUDA fat binaries and removed the flag), passes everything else through
/// and runs the real fatbinary, which it finds in this order:
///
///   1. $ENZYME_CUDA_PATH/bin/fatbinary (set by enzyme-clang to the toolkit
///      it chose; an error if that file is missing),
///   2. $CUDA_PATH/bin/fatbinary, $CUDA_HOME/bin/fatbinary,
///      /usr/local/cuda/bin/fatbinary,
///   3. `fatbinary` on PATH, skipping this wrapper.
///
/// It exits with the real tool's status, or 1 with a one-line message.
///
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace {

constexpr StringLiteral ToolName = "fatbinary (Enzyme CUDA compatibility)";

Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Translates the value of one `--image=` option, e.g.
/// `profile=sm_90a,file=x.o` to `kind=elf,sm=90a,file=x.o`.
Expected<std::string> translateImage(StringRef Spec) {
  std::string Kind, Sm, File;
  SmallVector<StringRef> Fields;
  Spec.split(Fields, ',');
  for (size_t I = 0; I < Fields.size(); ++I) {
    auto [Key, Value] = Fields[I].split('=');
    if (Key == "profile") {
      if (Value.consume_front("sm_"))
        Kind = "elf";
      else if (Value.consume_front("compute_"))
        Kind = "ptx";
      else
        return makeError("unknown image profile '" + Value +
                         "' in --image=" + Spec);
      Sm = Value.str();
    } else if (Key == "file") {
      // `file` is last in clang's spelling; keep any commas in the path.
      SmallVector<StringRef> Rest(Fields.begin() + I + 1, Fields.end());
      File = Value.str();
      for (StringRef Part : Rest)
        File += ("," + Part).str();
      break;
    } else {
      return makeError("cannot translate '" + Key + "' in --image=" + Spec);
    }
  }
  if (Kind.empty() || File.empty())
    return makeError("--image=" + Spec + " needs both profile= and file=");
  return "kind=" + Kind + ",sm=" + Sm + ",file=" + File;
}

Expected<std::vector<std::string>> translateArgs(ArrayRef<const char *> Args) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg == "--cuda" || Arg == "-cuda")
      continue;

    std::optional<StringRef> Spec;
    if (Arg.consume_front("--image=") || Arg.consume_front("-image="))
      Spec = Arg;
    else if ((Arg == "--image" || Arg == "-image") && I + 1 < Args.size())
      Spec = StringRef(Args[++I]);
    if (!Spec) {
      Out.push_back(Arg.str());
      continue;
    }
    Expected<std::string> Image = translateImage(*Spec);
    if (!Image)
      return Image.takeError();
    Out.push_back("--image3=" + *Image);
  }
  return Out;
}

/// True when \p Candidate is a runnable file other than this program.
bool isRealFatbinary(const Twine &Candidate, StringRef Self) {
  SmallString<256> Real;
  if (sys::fs::real_path(Candidate, Real) || !sys::fs::can_execute(Real))
    return false;
  return Real != Self;
}

Expected<std::string> findRealFatbinary(StringRef Self) {
  if (std::optional<std::string> Root =
          sys::Process::GetEnv("ENZYME_CUDA_PATH")) {
    SmallString<256> Path(*Root);
    sys::path::append(Path, "bin", "fatbinary");
    if (!isRealFatbinary(Path, Self))
      return makeError("'" + Path + "' (from ENZYME_CUDA_PATH) is missing");
    return std::string(Path);
  }

  std::vector<std::string> Roots;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Root = sys::Process::GetEnv(Var))
      Roots.push_back(*Root);
  Roots.push_back("/usr/local/cuda");
  for (const std::string &Root : Roots) {
    SmallString<256> Path(Root);
    sys::path::append(Path, "bin", "fatbinary");
    if (isRealFatbinary(Path, Self))
      return std::string(Path);
  }

  if (std::optional<std::string> SearchPath = sys::Process::GetEnv("PATH")) {
    SmallVector<StringRef> Dirs;
    StringRef(*SearchPath).split(Dirs, sys::EnvPathSeparator);
    for (StringRef Dir : Dirs) {
      SmallString<256> Path(Dir.empty() ? "." : Dir);
      sys::path::append(Path, "fatbinary");
      if (isRealFatbinary(Path, Self))
        return std::string(Path);
    }
  }
  return makeError("cannot find CUDA's fatbinary: set ENZYME_CUDA_PATH or "
                   "CUDA_PATH to the CUDA toolkit");
}

} // namespace

int main(int Argc, char **Argv) {
  // Any address inside this program will do for locating it.
  static int Anchor;
  std::string Self = sys::fs::getMainExecutable(Argv[0], &Anchor);
  SmallString<256> RealSelf;
  if (!sys::fs::real_path(Self, RealSelf))
    Self = std::string(RealSelf);

  auto Fail = [](Error E) {
    errs() << ToolName << ": error: " << toString(std::move(E)) << "\n";
    return 1;
  };

  Expected<std::vector<std::string>> Args =
      translateArgs(ArrayRef<const char *>(Argv + 1, Argv + Argc));
  if (!Args)
    return Fail(Args.takeError());
  Expected<std::string> Real = findRealFatbinary(Self);
  if (!Real)
    return Fail(Real.takeError());

  SmallVector<StringRef> Command = {*Real};
  Command.append(Args->begin(), Args->end());
  std::string Message;
  int Status = sys::ExecuteAndWait(*Real, Command, /*Env=*/std::nullopt,
                                   /*Redirects=*/{}, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &Message);
  if (Status < 0)
    return Fail(makeError("cannot run '" + *Real + "': " + Message));
  return Status;
}
