//===- Driver.cpp - enzyme-clang / enzyme-clang++ -------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "CudaEmulation.h"
#include "CudaSupport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

#include <unistd.h> // environ

using namespace llvm;

namespace enzyme::driver {

static constexpr const char *PluginVersionSuffix = "-19.so";
/// The clang frontend plugin for Enzyme's source attributes.
static constexpr const char *AttributesPluginName = "ClangEnzymeAttributes";

std::vector<std::string> ClangCommand::argv() const {
  std::vector<std::string> Result{Program};
  Result.insert(Result.end(), Before.begin(), Before.end());
  Result.insert(Result.end(), User.begin(), User.end());
  Result.insert(Result.end(), After.begin(), After.end());
  return Result;
}

Driver::Driver(const char *Argv0, void *MainAddr)
    : Name(sys::path::filename(Argv0).str()),
      CPlusPlus(StringRef(Name).contains("++")), Tools(Argv0, MainAddr) {}

int Driver::error(const Twine &Message) const {
  errs() << Name << ": error: " << Message << "\n";
  return 1;
}

/// Expands `@file` arguments the way clang does (GNU quoting, nested files
/// relative to the including file), so the scan sees what clang will see.
static Expected<std::vector<std::string>>
expandResponseFiles(ArrayRef<const char *> Args) {
  // LLVM keeps an `@name` that names no file as a plain argument; for a
  // compiler driver that is always a mistake worth a clear message.
  for (StringRef Arg : Args) {
    if (!Arg.starts_with("@") || Arg.size() == 1)
      continue;
    StringRef File = Arg.drop_front();
    if (!sys::fs::exists(File))
      return createStringError("cannot read response file '%s': no such file",
                               File.str().c_str());
  }

  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 64> Expanded(Args.begin(), Args.end());
  cl::ExpansionContext Context(Alloc, cl::TokenizeGNUCommandLine);
  Context.setRelativeNames(true);
  Context.setVFS(vfs::getRealFileSystem().get());
  if (Error E = Context.expandResponseFiles(Expanded))
    return createStringError("cannot read response file: " +
                             toString(std::move(E)));
  return std::vector<std::string>(Expanded.begin(), Expanded.end());
}

Expected<std::string> Driver::findPlugin(const CommandLineScan &Scan,
                                         StringRef Name) const {
  if (!Scan.PluginOverride)
    return Tools.findPlugin((Name + PluginVersionSuffix).str());
  if (!sys::fs::exists(*Scan.PluginOverride))
    return createStringError("cannot find the Enzyme plugin '%s' given by "
                             "-fenzyme-plugin=",
                             Scan.PluginOverride->c_str());
  return *Scan.PluginOverride;
}

Error Driver::addEnzymeArguments(const CommandLineScan &Scan,
                                 const std::string &Clang,
                                 ClangCommand &Command) const {
  Expected<std::string> Plugin = findPlugin(Scan, "ClangEnzyme");
  if (!Plugin)
    return Plugin.takeError();

  // `-fpass-plugin` places the pass in the pipeline; loading the same file
  // early with `-load` registers its options before clang parses `-mllvm`.
  // Both name one file, so the loader maps it once.
  Command.Before.push_back("-fpass-plugin=" + *Plugin);
  Command.Before.insert(Command.Before.end(),
                        {"-Xclang", "-load", "-Xclang", *Plugin});
  // After the user's own include paths, so a project can shadow the headers.
  Command.Before.insert(Command.Before.end(),
                        {"-idirafter", Tools.includeDir()});
  // Line tables give the engine's errors their source location; when the
  // user did not ask for debug information, the plugin strips them again
  // after its compile-time run, so objects are unchanged.
  if (!Scan.WantsDebugInfo && Scan.NumSourceInputs != 0)
    Command.Before.insert(Command.Before.end(), {"-gline-tables-only", "-mllvm",
                                                 "-enzyme-strip-debug-info"});
  if (Scan.TracePipeline)
    Command.Environment.emplace_back("ENZYME_TRACE_PIPELINE", "1");

  if (!Scan.producesObjects())
    return Error::success();
  // Fat LTO objects: native code any linker accepts, plus the bitcode that a
  // link-time derivative request needs from other translation units.
  Command.Before.insert(Command.Before.end(),
                        {"-flto=full", "-ffat-lto-objects"});
  if (!Scan.links())
    return Error::success();

  Expected<std::string> LLDPlugin = findPlugin(Scan, "LLDEnzyme");
  if (!LLDPlugin)
    return LLDPlugin.takeError();
  Expected<std::string> LLD = Tools.findLLD(Clang);
  if (!LLD)
    return LLD.takeError();
  Command.Before.push_back("--ld-path=" + *LLD);
  Command.Before.push_back("-Wl,--load-pass-plugin=" + *LLDPlugin);
  // lld parses `-mllvm` before it loads pass plugins; `-load` first makes
  // the plugin's options known to those that follow. clang-linker-wrapper
  // (the new offload driver's link) parses `-mllvm` options itself and
  // refuses `-load`: its links take the plugin's defaults.
  if (!Scan.OffloadNewDriver)
    Command.Before.push_back("-Wl,-mllvm,-load=" + *LLDPlugin);
  return Error::success();
}

Expected<std::string> Driver::attributesPluginArgument() const {
  Expected<std::string> Attributes = Tools.findPlugin(
      (Twine(AttributesPluginName) + PluginVersionSuffix).str());
  if (!Attributes) {
    consumeError(Attributes.takeError());
    return createStringError(
        "cannot find the attribute plugin %s%s in %s/%s; reinstall the "
        "toolchain",
        AttributesPluginName, PluginVersionSuffix, Tools.prefix().c_str(),
        static_cast<const char *>(ENZYME_INSTALL_LIBDIR));
  }
  return "-fplugin=" + *Attributes;
}

Expected<ClangCommand> Driver::plan(const CommandLineScan &Scan) const {
  Expected<std::string> Clang = Tools.findClang();
  if (!Clang)
    return Clang.takeError();

  ClangCommand Command;
  Command.Program = *Clang;
  if (CPlusPlus)
    Command.Before.push_back("--driver-mode=g++");
  Command.User = Scan.ClangArgs;
  if (Scan.PrintVersion)
    return Command;

  if (Scan.EnzymeEnabled)
    if (Error E = addEnzymeArguments(Scan, *Clang, Command))
      return std::move(E);

  // Enzyme's source attributes (enzyme_inactive, ...) are understood with or
  // without -fenzyme, so code written for Enzyme builds without warnings
  // either way. Only compile jobs of C-family sources claim -fplugin; clang
  // would warn about it as unused on any other command line.
  if (Scan.CompilesCFamily) {
    Expected<std::string> Attributes = attributesPluginArgument();
    if (!Attributes)
      return Attributes.takeError();
    Command.Before.push_back(*Attributes);
  }

  // A link of objects built with -fcuda-emulate takes the emulation runtime
  // instead of the CUDA runtime library, with or without the flag.
  bool EmulatedLink = !Scan.CompilesCuda && Scan.links() &&
                      (Scan.CudaEmulate || linksEmulatedObjects(Scan));
  if (EmulatedLink) {
    Command.User = withoutCudaRuntimeLibraries(Scan);
    std::vector<std::string> Runtime =
        emulationRuntimeLinkArguments(Tools.cudaEmulationLibrary());
    Command.After.insert(Command.After.end(), Runtime.begin(), Runtime.end());
  }

  // The new offload driver's link of objects links their device code too
  // (clang-linker-wrapper), with the toolkit a CUDA compilation uses.
  bool LinksDeviceCode = !Scan.CompilesCuda && Scan.links() &&
                         Scan.OffloadNewDriver && !EmulatedLink;
  if (Scan.CompilesCuda || LinksDeviceCode) {
    CudaRequest Request;
    Request.UserArgs = Scan.ClangArgs;
    Request.CompilesCuda = true;
    Request.Links = Scan.links();
    Request.CompatDir = Tools.cudaCompatDir();
    Expected<CudaArguments> Cuda = planCudaArguments(Request);
    if (!Cuda)
      return Cuda.takeError();
    if (Scan.CompilesCuda) {
      Command.Before.insert(Command.Before.end(), Cuda->Compile.begin(),
                            Cuda->Compile.end());
      Expected<std::vector<std::string>> Kernels = derivativeKernelArguments(
          Scan, *Clang, Cuda->Compile, Cuda->Environment);
      if (!Kernels)
        return Kernels.takeError();
      Command.Before.insert(Command.Before.end(), Kernels->begin(),
                            Kernels->end());
      // At -O0 clang reads the engine's line tables as a request for device
      // debug information and passes ptxas -g, which then warns that the
      // stripped debug sections are missing. Line directives give the engine
      // the same source locations and ptxas only -lineinfo.
      if (Scan.EnzymeEnabled && !Scan.WantsDebugInfo && !Scan.HostOnly)
        Command.Before.insert(Command.Before.end(),
                              {"-Xarch_device", "-gline-directives-only"});
      // Derivatives of device math call libdevice functions the device code
      // did not use before AD, which clang's link of libdevice left out.
      if (Scan.EnzymeEnabled && !Cuda->Libdevice.empty())
        Command.Before.insert(
            Command.Before.end(),
            {"-mllvm", "-enzyme-libdevice=" + Cuda->Libdevice});
    }
    Command.After.insert(Command.After.end(), Cuda->Link.begin(),
                         Cuda->Link.end());
    Command.Environment.insert(Command.Environment.end(),
                               Cuda->Environment.begin(),
                               Cuda->Environment.end());
  }
  return Command;
}

/// Prints a command the way `clang -###` does, so tests and users read both
/// the same way.
static void printCommand(raw_ostream &OS, ArrayRef<std::string> Argv) {
  ListSeparator Space(" ");
  for (const std::string &Arg : Argv) {
    OS << Space << '"';
    for (char C : Arg) {
      if (C == '"' || C == '\\' || C == '$')
        OS << '\\';
      OS << C;
    }
    OS << '"';
  }
  OS << "\n";
}

int Driver::execute(const ClangCommand &Command, const CommandLineScan &Scan,
                    bool Quiet) const {
  std::vector<std::string> Argv = Command.argv();
  if (Scan.PrintCommandsOnly || Scan.Verbose) {
    errs() << Name << ": running:";
    for (const auto &[Var, Value] : Command.Environment)
      errs() << ' ' << Var << '=' << Value;
    errs() << ' ';
    printCommand(errs(), Argv);
  }

  SmallVector<StringRef, 64> ArgRefs(Argv.begin(), Argv.end());
  // The child's environment: ours, with the command's variables replacing
  // inherited ones of the same name (getenv returns the first match).
  std::optional<SmallVector<StringRef, 64>> Env;
  std::vector<std::string> EnvStorage;
  if (!Command.Environment.empty()) {
    for (char **Var = environ; *Var; ++Var) {
      StringRef Name = StringRef(*Var).split('=').first;
      if (none_of(Command.Environment,
                  [&](const auto &Override) { return Override.first == Name; }))
        EnvStorage.emplace_back(*Var);
    }
    for (const auto &[Var, Value] : Command.Environment)
      EnvStorage.push_back(Var + "=" + Value);
    Env.emplace(EnvStorage.begin(), EnvStorage.end());
  }

  std::string ErrorMessage;
  std::optional<StringRef> Discarded[] = {std::nullopt, StringRef(""),
                                          StringRef("")};
  int Status =
      sys::ExecuteAndWait(Command.Program, ArgRefs, Env,
                          Quiet ? ArrayRef<std::optional<StringRef>>(Discarded)
                                : ArrayRef<std::optional<StringRef>>(),
                          0, 0, &ErrorMessage);
  if (Status < 0)
    return error("could not run '" + Command.Program + "': " + ErrorMessage);
  return Status;
}

int Driver::runCudaEmulation(const CommandLineScan &Scan) const {
  Expected<std::string> Clang = Tools.findClang();
  if (!Clang)
    return error(toString(Clang.takeError()));

  CudaEmulationRequest Request;
  Request.Scan = &Scan;
  Request.Base.Program = *Clang;
  if (CPlusPlus)
    Request.Base.Before.push_back("--driver-mode=g++");

  // The sources the final command compiles itself, beside the CUDA ones.
  unsigned OtherSources = count_if(Scan.Inputs, [](const InputArgument &Input) {
    return !Input.Cuda && Input.CFamily;
  });
  if (Scan.EnzymeEnabled) {
    // The device step keeps line tables for the retargeting tool's errors
    // (it drops them unless the user asked for debug information) and stops
    // at bitcode, so it has no use for LTO.
    CommandLineScan DeviceScan = Scan;
    DeviceScan.StopsBeforeObject = true;
    DeviceScan.WantsDebugInfo = true;
    CommandLineScan CompileScan = Scan;
    CompileScan.StopsBeforeLink = true;
    ClangCommand Device, Host, Link;
    if (Error E = addEnzymeArguments(DeviceScan, *Clang, Device))
      return error(toString(std::move(E)));
    if (Error E = addEnzymeArguments(CompileScan, *Clang, Host))
      return error(toString(std::move(E)));
    if (Scan.links()) {
      CommandLineScan LinkScan = Scan;
      LinkScan.NumSourceInputs = OtherSources;
      if (Error E = addEnzymeArguments(LinkScan, *Clang, Link))
        return error(toString(std::move(E)));
    }
    Request.DeviceCompileArgs = Device.Before;
    // Emulated lanes meet at each __activemask (runtime/BlockSync.h), which
    // keeps warp-aggregated atomics right but slow: each adjoint addition
    // becomes a dozen meetings of the warp's host threads. Derivatives add
    // with plain atomics there unless the command line asks otherwise
    // (later -mllvm options win), as the tests of those paths do.
    Request.DeviceCompileArgs.insert(
        Request.DeviceCompileArgs.end(),
        {"-mllvm", "-enzyme-warp-aggregated-atomics=false"});
    Request.HostCompileArgs = Host.Before;
    Request.LinkArgs = Link.Before;
    Request.Base.Environment = Host.Environment;
  }
  if (!Scan.WantsDebugInfo)
    Request.DeviceCompileArgs.push_back("-gline-tables-only");
  Expected<std::string> Attributes = attributesPluginArgument();
  if (!Attributes)
    return error(toString(Attributes.takeError()));
  Request.DeviceCompileArgs.push_back(*Attributes);
  Request.HostCompileArgs.push_back(*Attributes);
  if (OtherSources)
    Request.LinkArgs.push_back(*Attributes);
  if (Scan.links())
    for (auto *Args : {&Request.DeviceCompileArgs, &Request.HostCompileArgs})
      Args->push_back("-Wno-unused-command-line-argument");

  CudaRequest Cuda;
  Cuda.UserArgs = Scan.ClangArgs;
  Cuda.CompilesCuda = true;
  Cuda.Links = Scan.links();
  Cuda.Emulate = true;
  Cuda.CompatDir = Tools.cudaCompatDir();
  Expected<CudaArguments> Toolkit = planCudaArguments(Cuda);
  if (!Toolkit)
    return error(toString(Toolkit.takeError()));
  Request.CudaCompileArgs = Toolkit->Compile;
  Request.CudaVersion = Toolkit->EncodedVersion;
  Request.Base.Environment.insert(Request.Base.Environment.end(),
                                  Toolkit->Environment.begin(),
                                  Toolkit->Environment.end());
  Expected<std::vector<std::string>> Kernels = derivativeKernelArguments(
      Scan, *Clang, Toolkit->Compile, Request.Base.Environment);
  if (!Kernels)
    return error(toString(Kernels.takeError()));
  for (auto *Args : {&Request.DeviceCompileArgs, &Request.HostCompileArgs})
    Args->insert(Args->end(), Kernels->begin(), Kernels->end());

  Request.RetargetTool = Tools.cudaRetargetTool();
  Request.RuntimeLibrary = Tools.cudaEmulationLibrary();
  if (!sys::fs::exists(Request.RetargetTool))
    return error("CUDA emulation is not installed: '" + Request.RetargetTool +
                 "' is missing; reinstall the toolchain");
  if (Scan.links() && !sys::fs::exists(Request.RuntimeLibrary))
    return error("the CUDA emulation runtime '" + Request.RuntimeLibrary +
                 "' is missing: the toolchain was built without the CUDA "
                 "toolkit's headers; rebuild it where they are installed");

  SmallString<128> TempDir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("enzyme-cuda-emulate", TempDir))
    return error("cannot create a temporary directory: " + EC.message());
  Request.TempDir = std::string(TempDir);

  int Status = 0;
  Expected<std::vector<ClangCommand>> Steps = planCudaEmulation(Request);
  if (!Steps) {
    Status = error(toString(Steps.takeError()));
  } else {
    for (const ClangCommand &Step : *Steps) {
      if (Scan.PrintCommandsOnly) {
        errs() << ' ';
        printCommand(errs(), Step.argv());
        continue;
      }
      Status = execute(Step, Scan);
      if (Status != 0)
        break;
    }
  }
  sys::fs::remove_directories(TempDir);
  return Status;
}

int Driver::run(ArrayRef<const char *> Args) {
  Expected<std::vector<std::string>> Expanded = expandResponseFiles(Args);
  if (!Expanded)
    return error(toString(Expanded.takeError()));

  Expected<CommandLineScan> Scan = scanCommandLine(*Expanded);
  if (!Scan)
    return error(toString(Scan.takeError()));

  if (Scan->CudaEmulate && Scan->CompilesCuda && !Scan->PrintVersion)
    return runCudaEmulation(*Scan);

  Expected<ClangCommand> Command = plan(*Scan);
  if (!Command)
    return error(toString(Command.takeError()));

  if (Scan->PrintVersion) {
    outs() << "Enzyme toolchain " << ENZYME_TOOLCHAIN_VERSION << " (" << Name
           << ", automatic differentiation with -fenzyme)\n";
    outs().flush();
  }
  return execute(*Command, *Scan);
}

} // namespace enzyme::driver
