//===- Registry.cpp - Device modules, kernels and variables ---------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Two sides register independently, in either order: the host compilation
/// of a `.cu` file calls `__cudaRegisterFatBinary` with its stand-in GPU
/// binary (a NUL-terminated module id) and then names each kernel's host
/// stub and each variable's host shadow; the retargeted device module
/// registers its table under the same id. Lookups pair them by id and name.
///
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace enzyme::cuda_emulation {

static constexpr const char *ModuleIdPrefix = "enzyme-cuda-emulation:";

void fatal(const char *Format, ...) {
  // Several device threads may fail at once; one report is enough, and the
  // others wait here until abort() ends the program.
  static std::mutex Reporting;
  Reporting.lock();
  std::fflush(stdout);
  std::fprintf(stderr, "CUDA emulation: ");
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::fprintf(stderr, "\n");
  std::abort();
}

namespace {

/// What `__cudaRegisterFatBinary` returns: the handle the host passes back.
struct FatBinary {
  std::string Id;
};

struct Registration {
  FatBinary *Binary;
  std::string Name;
};

struct Registry {
  std::mutex Lock;
  std::map<std::string, const EnzymeCudaEmuModule *> Modules;
  std::map<const void *, Registration> Kernels;
  std::map<const void *, Registration> Variables;

  const EnzymeCudaEmuModule *module(const FatBinary &Binary) {
    auto It = Modules.find(Binary.Id);
    return It == Modules.end() ? nullptr : It->second;
  }

  void *variable(const Registration &R, size_t *Size) {
    const EnzymeCudaEmuModule *M = module(*R.Binary);
    if (!M)
      return nullptr;
    for (uint32_t I = 0; I < M->NumVariables; ++I)
      if (R.Name == M->Variables[I].Name) {
        if (Size)
          *Size = M->Variables[I].Size;
        return M->Variables[I].Address;
      }
    return nullptr;
  }
};

Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

} // namespace

KernelHandle findKernel(const void *HostStub) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  KernelHandle Handle;
  auto It = R.Kernels.find(HostStub);
  if (It == R.Kernels.end())
    return Handle;
  const EnzymeCudaEmuModule *M = R.module(*It->second.Binary);
  if (!M)
    return Handle;
  for (uint32_t I = 0; I < M->NumKernels; ++I)
    if (It->second.Name == M->Kernels[I].Name) {
      Handle.Kernel = &M->Kernels[I];
      Handle.Module = M;
    }
  return Handle;
}

void *findVariable(const void *HostVariable, size_t *Size) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto It = R.Variables.find(HostVariable);
  return It == R.Variables.end() ? nullptr : R.variable(It->second, Size);
}

uint32_t deviceComputeCapability() {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  uint32_t Highest = 0;
  for (auto &[Id, M] : R.Modules)
    Highest = M->ComputeCapability > Highest ? M->ComputeCapability : Highest;
  return Highest ? Highest : 75;
}

} // namespace enzyme::cuda_emulation

using namespace enzyme::cuda_emulation;

extern "C" {

void __cudaemu_register_module(const EnzymeCudaEmuModule *Module) {
  if (Module->AbiVersion != ENZYME_CUDA_EMU_ABI_VERSION)
    fatal("the device code of '%s' was retargeted for emulation ABI %u, but "
          "this runtime implements ABI %u; rebuild it with this toolchain",
          Module->Id, Module->AbiVersion, ENZYME_CUDA_EMU_ABI_VERSION);
  if (Module->CudaVersion / 1000 != CUDART_VERSION / 1000)
    fatal("the device code of '%s' was compiled with CUDA %u.%u headers, "
          "but this emulation runtime implements CUDA %u.%u; build the "
          "program with the toolkit the toolchain was built for",
          Module->Id, Module->CudaVersion / 1000,
          Module->CudaVersion % 1000 / 10, CUDART_VERSION / 1000,
          CUDART_VERSION % 1000 / 10);
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Modules[Module->Id] = Module;
}

/// The layout of the wrapper clang passes (`__fatBinC_Wrapper_t`).
struct FatBinaryWrapper {
  int Magic;
  int Version;
  const char *Data;
  void *Unused;
};

void **__cudaRegisterFatBinary(void *Wrapper) {
  const char *Data = static_cast<FatBinaryWrapper *>(Wrapper)->Data;
  if (!Data || std::strncmp(Data, ModuleIdPrefix, std::strlen(ModuleIdPrefix)))
    fatal("this program contains GPU code built for a real GPU; build every "
          "CUDA file with -fcuda-emulate to run its kernels on the CPU, and "
          "link with -fcuda-emulate");
  auto *Binary = new FatBinary{Data};
  return reinterpret_cast<void **>(Binary);
}

void __cudaRegisterFatBinaryEnd(void **) {}

/// What `__cudaRegisterLinkedBinary_<id>` does for a file of relocatable
/// device code (retarget/Relocatable.cpp): \p RegisterGlobals names its
/// kernels and variables under the handle of its stand-in binary.
void __cudaemu_register_linked_binary(void (*RegisterGlobals)(void **),
                                      void *Wrapper) {
  void **Handle = __cudaRegisterFatBinary(Wrapper);
  RegisterGlobals(Handle);
  __cudaRegisterFatBinaryEnd(Handle);
}

void __cudaUnregisterFatBinary(void **) {
  // Kernels may still be launched from other destructors; keep everything.
}

void __cudaRegisterFunction(void **Handle, const char *HostStub,
                            char *DeviceName, const char *, int, void *, void *,
                            void *, void *, int *) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Kernels[HostStub] = {reinterpret_cast<FatBinary *>(Handle), DeviceName};
}

void __cudaRegisterVar(void **Handle, char *HostVariable, char *DeviceName,
                       const char *, int, size_t, int, int) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Variables[HostVariable] = {reinterpret_cast<FatBinary *>(Handle),
                               DeviceName};
}

} // extern "C"
