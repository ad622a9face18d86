//===- CommandLineScan.cpp - What a clang command line asks for -----------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "CommandLineScan.h"

#include "clang/Driver/Options.h"
#include "clang/Driver/Types.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/Path.h"

using namespace llvm;
namespace options = clang::driver::options;

namespace enzyme::driver {

/// Consumes one of the driver's own options. Returns false when \p Arg is not
/// one of them, and an error for an unknown `-fenzyme-*` spelling.
static Expected<bool> consumeEnzymeOption(StringRef Arg,
                                          CommandLineScan &Scan) {
  if (Arg == "-fenzyme") {
    Scan.EnzymeEnabled = true;
    return true;
  }
  if (Arg == "-fno-enzyme") {
    Scan.EnzymeEnabled = false;
    return true;
  }
  if (Arg == "-fcuda-emulate" || Arg == "-fno-cuda-emulate") {
    Scan.CudaEmulate = Arg == "-fcuda-emulate";
    return true;
  }
  if (!Arg.starts_with("-fenzyme-") && !Arg.starts_with("-fno-enzyme-"))
    return false;
  if (Arg == "-fenzyme-trace") {
    Scan.TracePipeline = true;
    return true;
  }
  if (Arg == "-fno-enzyme-trace") {
    Scan.TracePipeline = false;
    return true;
  }
  if (Arg.consume_front("-fenzyme-plugin=")) {
    if (Arg.empty())
      return createStringError("-fenzyme-plugin= needs a path to the plugin");
    Scan.PluginOverride = Arg.str();
    return true;
  }
  return createStringError(
      "unknown option '%s'; the Enzyme options are -fenzyme, -fno-enzyme, "
      "-fenzyme-trace and -fenzyme-plugin=<path> (see docs/driver.md)",
      Arg.str().c_str());
}

/// Sources that clang parses (C, C++, CUDA, Objective-C and their headers),
/// as opposed to assembly, LLVM IR or linker inputs.
static bool isCFamily(std::optional<StringRef> Language, StringRef Input) {
  namespace types = clang::driver::types;
  types::ID Type =
      Language ? types::lookupTypeForTypeSpecifier(Language->str().c_str())
               : types::lookupTypeForExtension(
                     sys::path::extension(Input).drop_front());
  return Type != types::TY_INVALID && types::isDerivedFromC(Type);
}

static bool isCudaSource(StringRef Input) {
  return sys::path::extension(Input) == ".cu";
}

/// Inputs that go to the linker as they are.
static bool isLinkerInput(StringRef Input) {
  StringRef Ext = sys::path::extension(Input);
  return Ext == ".o" || Ext == ".a" || Ext == ".so" || Ext == ".obj" ||
         Ext == ".lo" || Input.contains(".so.");
}

Expected<CommandLineScan> scanCommandLine(ArrayRef<std::string> Args) {
  CommandLineScan Scan;
  for (const std::string &Arg : Args) {
    Expected<bool> Consumed = consumeEnzymeOption(Arg, Scan);
    if (!Consumed)
      return Consumed.takeError();
    if (!*Consumed)
      Scan.ClangArgs.push_back(Arg);
  }

  std::vector<const char *> Raw;
  Raw.reserve(Scan.ClangArgs.size());
  for (const std::string &Arg : Scan.ClangArgs)
    Raw.push_back(Arg.c_str());

  // Clang reports malformed command lines itself; the scan only needs to see
  // the options it understands, so missing values are not an error here.
  const opt::OptTable &Table = clang::driver::getDriverOptTable();
  unsigned MissingIndex = 0, MissingCount = 0;
  opt::InputArgList Parsed = Table.ParseArgs(
      Raw, MissingIndex, MissingCount, opt::Visibility(options::ClangOption));

  // The language of `-x` applies to the inputs after it, until the next
  // `-x`; `-x none` goes back to deciding by file extension.
  std::optional<bool> CudaLanguage;
  std::optional<StringRef> Language;
  // Every argument string belongs to one parsed argument; an argument runs
  // up to where the next one starts.
  SmallVector<const opt::Arg *, 64> Ordered(Parsed.begin(), Parsed.end());
  auto SpanOf = [&](size_t Position) {
    ArgumentSpan Span;
    Span.Begin = Ordered[Position]->getIndex();
    Span.End = Position + 1 < Ordered.size() ? Ordered[Position + 1]->getIndex()
                                             : Scan.ClangArgs.size();
    return Span;
  };
  for (size_t Position = 0; Position < Ordered.size(); ++Position) {
    const opt::Arg *A = Ordered[Position];
    const opt::Option &Option = A->getOption();
    if (Option.matches(options::OPT_M_Group))
      Scan.DependencyOptions.push_back(SpanOf(Position));
    switch (Option.getID()) {
    case options::OPT__version:
      Scan.PrintVersion = true;
      break;
    case options::OPT__HASH_HASH_HASH:
      Scan.PrintCommandsOnly = true;
      break;
    case options::OPT_v:
      Scan.Verbose = true;
      break;
    case options::OPT_E:
    case options::OPT_S:
    case options::OPT_emit_llvm:
      Scan.StageOptions.push_back(SpanOf(Position));
      Scan.StopsBeforeObject = true;
      break;
    case options::OPT_M:
    case options::OPT_MM:
    case options::OPT_fsyntax_only:
    case options::OPT__precompile:
      Scan.StopsBeforeObject = true;
      break;
    case options::OPT_c:
      Scan.StageOptions.push_back(SpanOf(Position));
      Scan.StopsBeforeLink = true;
      break;
    case options::OPT_o:
      Scan.OutputOptions.push_back(SpanOf(Position));
      Scan.Output = A->getValue();
      break;
    case options::OPT_x:
      Scan.LanguageOptions.push_back(SpanOf(Position));
      if (StringRef(A->getValue()) == "none") {
        CudaLanguage.reset();
        Language.reset();
      } else {
        CudaLanguage = StringRef(A->getValue()) == "cuda";
        Language = StringRef(A->getValue());
      }
      break;
    case options::OPT_INPUT: {
      ++Scan.NumInputs;
      if (CudaLanguage || !isLinkerInput(A->getValue()))
        ++Scan.NumSourceInputs;
      bool Cuda = CudaLanguage ? *CudaLanguage : isCudaSource(A->getValue());
      Scan.CompilesCuda |= Cuda;
      InputArgument Input;
      Input.CFamily = isCFamily(Language, A->getValue());
      Scan.CompilesCFamily |= Input.CFamily;
      Input.At = SpanOf(Position);
      Input.Path = A->getValue();
      if (Language)
        Input.Language = Language->str();
      Input.Cuda = Cuda;
      Scan.Inputs.push_back(std::move(Input));
      break;
    }
    case options::OPT_l: {
      ++Scan.NumInputs;
      StringRef Library = A->getValue();
      if (Library == "cudart" || Library == "cudart_static" ||
          Library == "cuda" || Library == "cudadevrt")
        Scan.CudaRuntimeLibraries.push_back(SpanOf(Position));
      break;
    }
    case options::OPT_fgpu_rdc:
    case options::OPT_fno_gpu_rdc:
      Scan.RelocatableDeviceCode =
          A->getOption().matches(options::OPT_fgpu_rdc);
      break;
    case options::OPT_offload_new_driver:
    case options::OPT_no_offload_new_driver:
      Scan.OffloadNewDriver =
          A->getOption().matches(options::OPT_offload_new_driver);
      break;
    case options::OPT_offload_host_only:
      Scan.HostOnly = true;
      break;
    case options::OPT_offload_device_only:
    case options::OPT_offload_host_device:
      Scan.HostOnly = false;
      break;
    default:
      if (A->getOption().matches(options::OPT_g_Group) &&
          !A->getOption().matches(options::OPT_g0))
        Scan.WantsDebugInfo = true;
      break;
    }
  }
  return Scan;
}

} // namespace enzyme::driver
