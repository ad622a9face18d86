//===- Retarget.h - Turn an NVPTX device module into host code --*- C++ -*-===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The steps that make a device compilation's module run on the host under
/// the emulation runtime (EmulationAbi.h): device intrinsics and library
/// calls become runtime calls or plain IR, `__shared__` variables become
/// offsets into the running block's shared memory, and every kernel gets an
/// entry point that unpacks `cudaLaunchKernel`'s argument array.
///
//===----------------------------------------------------------------------===//

#ifndef ENZYME_CUDA_EMULATION_RETARGET_H
#define ENZYME_CUDA_EMULATION_RETARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"

#include <cstdint>
#include <string>
#include <utility>

namespace llvm {
class CallInst;
class FunctionCallee;
class IRBuilderBase;
class Type;
class Value;
class Function;
class GlobalValue;
class Instruction;
class Module;
class raw_ostream;
} // namespace llvm

namespace enzyme::cuda_emulation {

struct RetargetOptions {
  /// The host target triple and data layout the module is rewritten for.
  std::string HostTriple;
  std::string HostDataLayout;
  /// Pairs this module's registration table with the host compilation's
  /// stand-in GPU binary.
  std::string ModuleId;
  /// CUDART_VERSION of the toolkit the device code was compiled with.
  uint32_t CudaVersion = 0;
  /// Keep debug information (the user asked for it).
  bool KeepDebugInfo = false;
  /// Relocatable device code (-fgpu-rdc): device functions and variables
  /// may be defined in another file, and the host compilation registers
  /// the file through `__cudaRegisterLinkedBinary_<module id>`.
  bool Relocatable = false;
};

/// Collects errors about device code the emulator cannot run, each with the
/// source location of the instruction (line tables) or its function.
class DiagnosticList {
public:
  void error(const llvm::Instruction &At, const llvm::Twine &Message);
  void error(const llvm::Function &At, const llvm::Twine &Message);
  bool empty() const { return Messages.empty(); }
  void print(llvm::raw_ostream &OS) const;

private:
  void add(std::string Message);
  llvm::SmallVector<std::string, 4> Messages;
};

/// The emulation runtime's function \p Name (EmulationAbi.h), declared in
/// \p M on first use; it does not unwind.
llvm::FunctionCallee runtimeFunction(llvm::Module &M, llvm::StringRef Name,
                                     llvm::Type *Result,
                                     llvm::ArrayRef<llvm::Type *> Params);

/// The runtime's warp shuffle (an EnzymeCudaEmuShuffleMode) of the 32 bits
/// \p Bits: the value received and the PTX predicate (the source lane was
/// in range).
std::pair<llvm::Value *, llvm::Value *>
emitShuffle(llvm::IRBuilderBase &B, unsigned Mode, llvm::Value *Mask,
            llvm::Value *Bits, llvm::Value *Lane, llvm::Value *Clamp);

/// Replaces \p Call, inline PTX whose statement is \p Text, by what it
/// computes, when it is one that CUB writes (a cache hint, a load or store
/// with a memory order at GPU scope, a bit operation, a ballot match);
/// false, leaving it, otherwise.
bool lowerKnownPtx(llvm::CallInst &Call, llvm::StringRef Text);

/// Rewrites device intrinsics, inline assembly and calls to the device
/// runtime (`vprintf`, `__assertfail`, libdevice); reports what the emulator
/// does not support. A call of a device function this file does not define
/// is an error, unless \p OtherFiles collects them (relocatable device
/// code).
void lowerDeviceCalls(
    llvm::Module &M, DiagnosticList &Diags,
    llvm::SmallSetVector<llvm::GlobalValue *, 4> *OtherFiles = nullptr);

/// Makes every definition of \p M internal but those \p Keep names: device
/// and host code may define the same names (`__host__ __device__`
/// functions, a `__device__` variable and its host shadow), and each must
/// keep its own.
void internalize(
    llvm::Module &M,
    llvm::function_ref<bool(const llvm::GlobalValue &)> Keep = nullptr);

/// Relocatable device code: the device module's definitions that other
/// files may name and its references to other files' (\p OtherFiles) get
/// the names linkedDeviceName gives them, so the host link joins device
/// code across files apart from the host's symbols of the same names; and
/// the module defines the registration entry the host compilation calls.
/// Every other definition becomes internal.
void linkAcrossFiles(llvm::Module &M,
                     llvm::SmallSetVector<llvm::GlobalValue *, 4> &OtherFiles);

/// The name under which emulated device code of other files sees the
/// device symbol \p Name: `helper(double)` is `_Z6helperd.cuda_device`.
std::string linkedDeviceName(llvm::StringRef Name);

struct SharedMemoryLayout {
  /// Bytes of all static `__shared__` variables; dynamic shared memory
  /// starts here.
  uint64_t StaticBytes = 0;
  /// The static bytes each kernel uses, what a GPU reserves for it.
  llvm::DenseMap<const llvm::Function *, uint64_t> KernelStaticBytes;
};

/// Lays out static `__shared__` variables in one per-block buffer, dynamic
/// shared memory after them, and replaces every use by an address in the
/// running block's buffer.
SharedMemoryLayout lowerSharedMemory(llvm::Module &M,
                                     llvm::ArrayRef<llvm::Function *> Kernels,
                                     DiagnosticList &Diags);

/// The `__global__` functions of \p M.
llvm::SmallVector<llvm::Function *, 8> findKernels(llvm::Module &M);

/// Emits kernel entry points, the variable table and the constructor that
/// registers them with the runtime.
void emitRegistration(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Kernels,
                      const SharedMemoryLayout &Shared,
                      const RetargetOptions &Options);

/// Runs every step and switches \p M to the host target. Returns false
/// after printing errors to \p Errors.
bool retargetToHost(llvm::Module &M, const RetargetOptions &Options,
                    llvm::raw_ostream &Errors);

} // namespace enzyme::cuda_emulation

#endif // ENZYME_CUDA_EMULATION_RETARGET_H
