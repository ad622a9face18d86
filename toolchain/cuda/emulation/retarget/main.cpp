//===- main.cpp - enzyme-cuda-retarget ------------------------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `enzyme-cuda-retarget DEVICE.bc -o HOST.bc --id-file=ID.bin` turns the
/// bitcode of a device compilation into host bitcode that the emulation
/// runtime runs (see docs/cuda.md, "CUDA without a GPU"). The driver runs it
/// between the device and the host compilation of each `.cu` file.
///
//===----------------------------------------------------------------------===//

#include "Retarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <memory>

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<device bitcode>"),
                                  cl::Required);
static cl::opt<std::string> Output("o", cl::desc("Output host bitcode"),
                                   cl::Required);
static cl::opt<std::string>
    IdFile("id-file", cl::Required,
           cl::desc("Where to write the module's identifier, the stand-in "
                    "GPU binary the host compilation embeds"));
static cl::opt<std::string> HostTriple("triple", cl::desc("Host target triple"),
                                       cl::init(sys::getDefaultTargetTriple()));
static cl::opt<unsigned> CudaVersion("cuda-version",
                                     cl::desc("CUDART_VERSION of the toolkit"),
                                     cl::init(0));
static cl::opt<bool> KeepDebugInfo("keep-debug-info",
                                   cl::desc("Keep debug information"));
static cl::opt<bool>
    Relocatable("relocatable",
                cl::desc("Relocatable device code (-fgpu-rdc): device "
                         "symbols may be defined in other files"));

static constexpr const char *ToolName = "enzyme-cuda-retarget";

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "CUDA emulation: device to host\n");
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();

  std::string Error;
  const Target *HostTarget = TargetRegistry::lookupTarget(HostTriple, Error);
  if (!HostTarget) {
    errs() << ToolName << ": error: " << Error << "\n";
    return 1;
  }
  std::unique_ptr<TargetMachine> Machine(HostTarget->createTargetMachine(
      HostTriple, "", "", TargetOptions(), std::nullopt));

  LLVMContext Context;
  SMDiagnostic ParseError;
  std::unique_ptr<Module> M = parseIRFile(Input, ParseError, Context);
  if (!M) {
    ParseError.print(ToolName, errs());
    return 1;
  }

  // The identifier pairs the host side's registrations with this module's
  // table: the source file, and a hash of the device code, so the same file
  // built twice with other options gets another one.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bitcode = MemoryBuffer::getFile(Input);
  if (!Bitcode) {
    errs() << ToolName << ": error: cannot read '" << Input
           << "': " << Bitcode.getError().message() << "\n";
    return 1;
  }
  std::string ModuleId =
      "enzyme-cuda-emulation:" + M->getSourceFileName() + ":" +
      utohexstr(xxh3_64bits(arrayRefFromStringRef((*Bitcode)->getBuffer())));

  enzyme::cuda_emulation::RetargetOptions Options;
  Options.HostTriple = HostTriple;
  Options.HostDataLayout =
      Machine->createDataLayout().getStringRepresentation();
  Options.ModuleId = ModuleId;
  Options.CudaVersion = CudaVersion;
  Options.KeepDebugInfo = KeepDebugInfo;
  Options.Relocatable = Relocatable;
  if (!enzyme::cuda_emulation::retargetToHost(*M, Options, errs()))
    return 1;

  std::error_code EC;
  ToolOutputFile Out(Output, EC, sys::fs::OF_None);
  if (EC) {
    errs() << ToolName << ": error: cannot write '" << Output
           << "': " << EC.message() << "\n";
    return 1;
  }
  WriteBitcodeToFile(*M, Out.os());

  ToolOutputFile Id(IdFile, EC, sys::fs::OF_None);
  if (EC) {
    errs() << ToolName << ": error: cannot write '" << IdFile
           << "': " << EC.message() << "\n";
    return 1;
  }
  // NUL-terminated: the runtime reads it as a C string.
  Id.os() << ModuleId << '\0';
  Out.keep();
  Id.keep();
  return 0;
}
