//===- RuntimeApi.cpp - The CUDA runtime API on the host ------------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The part of the CUDA runtime API that ordinary programs use, for one
/// emulated device whose memory is host memory. Everything is synchronous:
/// a launch returns when the kernel finished, so streams and events only
/// need to exist and keep time. Errors are CUDA's own codes and strings,
/// with its rules: launch errors are returned by cudaGetLastError once; a
/// failed kernel (a device assert or trap) is sticky.
///
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace enzyme::cuda_emulation {

static thread_local cudaError_t LastError = cudaSuccess;
static std::atomic<cudaError_t> Sticky{cudaSuccess};

cudaError_t setError(cudaError_t Error) {
  if (Sticky != cudaSuccess)
    return LastError = Sticky;
  if (Error != cudaSuccess)
    LastError = Error;
  return Error;
}

void setStickyError(cudaError_t Error) {
  cudaError_t Expected = cudaSuccess;
  Sticky.compare_exchange_strong(Expected, Error);
}

cudaError_t stickyError() { return Sticky; }

namespace {

/// The emulated device's limits, those of a recent GPU.
constexpr size_t SharedMemoryPerBlock = 48 * 1024;
constexpr size_t SharedMemoryPerBlockOptIn = 227 * 1024;
constexpr int MaxThreadsPerBlock = 1024;
constexpr int MaxBlockDim[3] = {1024, 1024, 64};
constexpr int MaxGridDim[3] = {0x7fffffff, 65535, 65535};
constexpr size_t DeviceAllocationAlignment = 256;
// What a launch with impossible dimensions returns. CUDA 13.0's runtime on
// an H100 answers cudaErrorInvalidValue (measured); older runtimes answer
// cudaErrorInvalidConfiguration.
#if CUDART_VERSION >= 13000
constexpr cudaError_t InvalidLaunchConfiguration = cudaErrorInvalidValue;
#else
constexpr cudaError_t InvalidLaunchConfiguration =
    cudaErrorInvalidConfiguration;
#endif

struct DeviceState {
  std::mutex Lock;
  /// Live allocations of cudaMalloc and friends, to reject bad frees.
  std::map<const void *, size_t> Allocations;
  /// cudaFuncSetAttribute(MaxDynamicSharedMemorySize) per host stub.
  std::map<const void *, int> MaxDynamicShared;
};

DeviceState &device() {
  static DeviceState *State = new DeviceState;
  return *State;
}

struct LaunchConfiguration {
  dim3 Grid, Block;
  size_t SharedBytes;
  void *Stream;
};
thread_local std::vector<LaunchConfiguration> PendingLaunches;

cudaError_t allocate(void **Pointer, size_t Size) {
  if (!Pointer)
    return setError(cudaErrorInvalidValue);
  size_t Rounded = (std::max<size_t>(Size, 1) + DeviceAllocationAlignment - 1) /
                   DeviceAllocationAlignment * DeviceAllocationAlignment;
  void *Memory = std::aligned_alloc(DeviceAllocationAlignment, Rounded);
  if (!Memory) {
    *Pointer = nullptr;
    return setError(cudaErrorMemoryAllocation);
  }
  DeviceState &D = device();
  std::lock_guard<std::mutex> Guard(D.Lock);
  D.Allocations[Memory] = Size;
  *Pointer = Memory;
  return setError(cudaSuccess);
}

cudaError_t release(void *Pointer) {
  if (!Pointer)
    return setError(cudaSuccess);
  DeviceState &D = device();
  {
    std::lock_guard<std::mutex> Guard(D.Lock);
    if (!D.Allocations.erase(Pointer))
      return setError(cudaErrorInvalidValue);
  }
  std::free(Pointer);
  return setError(cudaSuccess);
}

bool validKind(cudaMemcpyKind Kind) {
  return Kind >= cudaMemcpyHostToHost && Kind <= cudaMemcpyDefault;
}

cudaError_t copy(void *Dst, const void *Src, size_t Count,
                 cudaMemcpyKind Kind) {
  if (!validKind(Kind))
    return setError(cudaErrorInvalidMemcpyDirection);
  if (Count && (!Dst || !Src))
    return setError(cudaErrorInvalidValue);
  if (Count)
    std::memmove(Dst, Src, Count);
  return setError(cudaSuccess);
}

cudaError_t symbol(const void *Symbol, size_t Offset, size_t Count,
                   char **Address) {
  size_t Size = 0;
  void *Storage = findVariable(Symbol, &Size);
  if (!Storage)
    return cudaErrorInvalidSymbol;
  if (Offset > Size || Count > Size - Offset)
    return cudaErrorInvalidValue;
  *Address = static_cast<char *>(Storage) + Offset;
  return cudaSuccess;
}

/// A stream: work on it is done when the call that queues it returns, so
/// only what the program may ask of it is kept.
struct StreamState {
  unsigned Flags;
  int Priority;
};
/// Stream priorities run from 0 (least) to this (greatest), as on recent
/// GPUs.
constexpr int GreatestStreamPriority = -5;
/// The default stream and the special handles (cudaStreamLegacy,
/// cudaStreamPerThread) have no state of their own.
bool isSpecialStream(cudaStream_t Stream) {
  return reinterpret_cast<uintptr_t>(Stream) <= 2;
}

struct Event {
  std::chrono::steady_clock::time_point Time;
  bool Recorded = false;
};

/// The shared memory (static and dynamic) a block of \p Kernel may have:
/// 48 KiB, or what the program opted in to (cudaFuncSetAttribute).
size_t sharedMemoryLimit(const KernelHandle &Kernel, const void *Function) {
  size_t Limit = SharedMemoryPerBlock;
  DeviceState &D = device();
  std::lock_guard<std::mutex> Guard(D.Lock);
  auto It = D.MaxDynamicShared.find(Function);
  if (It != D.MaxDynamicShared.end())
    Limit = std::max(Limit, Kernel.Kernel->StaticSharedBytes + It->second);
  return Limit;
}

cudaError_t validateLaunch(const KernelHandle &Kernel, const void *Function,
                           dim3 Grid, dim3 Block, size_t SharedBytes) {
  if (!Kernel.Kernel)
    return cudaErrorInvalidDeviceFunction;
  if (Block.x == 0 || Block.y == 0 || Block.z == 0 || Grid.x == 0 ||
      Grid.y == 0 || Grid.z == 0)
    return InvalidLaunchConfiguration;
  if (Block.x > unsigned(MaxBlockDim[0]) ||
      Block.y > unsigned(MaxBlockDim[1]) ||
      Block.z > unsigned(MaxBlockDim[2]) ||
      uint64_t(Block.x) * Block.y * Block.z > unsigned(MaxThreadsPerBlock))
    return InvalidLaunchConfiguration;
  if (Grid.x > unsigned(MaxGridDim[0]) || Grid.y > unsigned(MaxGridDim[1]) ||
      Grid.z > unsigned(MaxGridDim[2]))
    return InvalidLaunchConfiguration;
  if (Kernel.Kernel->StaticSharedBytes + SharedBytes >
      sharedMemoryLimit(Kernel, Function))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

} // namespace
} // namespace enzyme::cuda_emulation

using namespace enzyme::cuda_emulation;

extern "C" {

// Memory.

cudaError_t cudaMalloc(void **DevPtr, size_t Size) {
  return allocate(DevPtr, Size);
}
cudaError_t cudaMallocManaged(void **DevPtr, size_t Size, unsigned) {
  return allocate(DevPtr, Size);
}
// Rows padded to 256 bytes, as a GPU pads them (to its texture alignment),
// so that programs which confuse the pitch with the width fail here too.
cudaError_t cudaMallocPitch(void **DevPtr, size_t *Pitch, size_t Width,
                            size_t Height) {
  constexpr size_t RowAlignment = 256;
  if (!Pitch)
    return setError(cudaErrorInvalidValue);
  size_t Padded = (Width + RowAlignment - 1) / RowAlignment * RowAlignment;
  cudaError_t Error = allocate(DevPtr, Padded * Height);
  if (Error == cudaSuccess)
    *Pitch = Padded;
  return Error;
}
cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  return allocate(Ptr, Size);
}
cudaError_t cudaHostAlloc(void **Ptr, size_t Size, unsigned) {
  return allocate(Ptr, Size);
}
cudaError_t cudaMallocAsync(void **DevPtr, size_t Size, cudaStream_t) {
  return allocate(DevPtr, Size);
}
// Where managed memory should live: one device whose memory is host memory
// has nowhere else to put it, so the hints only check their range.
cudaError_t cudaMemPrefetchAsync(const void *DevPtr, size_t Count,
                                 cudaMemLocation, unsigned, cudaStream_t) {
  return setError(!DevPtr && Count ? cudaErrorInvalidValue : cudaSuccess);
}
cudaError_t cudaMemAdvise(const void *DevPtr, size_t Count, cudaMemoryAdvise,
                          cudaMemLocation) {
  return setError(!DevPtr && Count ? cudaErrorInvalidValue : cudaSuccess);
}
cudaError_t cudaFree(void *DevPtr) { return release(DevPtr); }
cudaError_t cudaFreeHost(void *Ptr) { return release(Ptr); }
cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t) {
  return release(DevPtr);
}

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       cudaMemcpyKind Kind) {
  return copy(Dst, Src, Count, Kind);
}
cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                            cudaMemcpyKind Kind, cudaStream_t) {
  return copy(Dst, Src, Count, Kind);
}
// Copies between devices: the one device is its own only peer.
cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice, const void *Src,
                           int SrcDevice, size_t Count) {
  if (DstDevice != 0 || SrcDevice != 0)
    return setError(cudaErrorInvalidDevice);
  return copy(Dst, Src, Count, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice, const void *Src,
                                int SrcDevice, size_t Count, cudaStream_t) {
  return cudaMemcpyPeer(Dst, DstDevice, Src, SrcDevice, Count);
}
cudaError_t cudaMemcpy2D(void *Dst, size_t DstPitch, const void *Src,
                         size_t SrcPitch, size_t Width, size_t Height,
                         cudaMemcpyKind Kind) {
  if (!validKind(Kind))
    return setError(cudaErrorInvalidMemcpyDirection);
  if (Width > DstPitch || Width > SrcPitch)
    return setError(cudaErrorInvalidPitchValue);
  for (size_t Row = 0; Row < Height; ++Row)
    std::memmove(static_cast<char *>(Dst) + Row * DstPitch,
                 static_cast<const char *>(Src) + Row * SrcPitch, Width);
  return setError(cudaSuccess);
}
cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DstPitch, const void *Src,
                              size_t SrcPitch, size_t Width, size_t Height,
                              cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpy2D(Dst, DstPitch, Src, SrcPitch, Width, Height, Kind);
}
cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count) {
  if (Count && !DevPtr)
    return setError(cudaErrorInvalidValue);
  std::memset(DevPtr, Value, Count);
  return setError(cudaSuccess);
}
cudaError_t cudaMemsetAsync(void *DevPtr, int Value, size_t Count,
                            cudaStream_t) {
  return cudaMemset(DevPtr, Value, Count);
}
cudaError_t cudaMemset2D(void *DevPtr, size_t Pitch, int Value, size_t Width,
                         size_t Height) {
  if (Width > Pitch)
    return setError(cudaErrorInvalidPitchValue);
  if (Width && Height && !DevPtr)
    return setError(cudaErrorInvalidValue);
  for (size_t Row = 0; Row < Height; ++Row)
    std::memset(static_cast<char *>(DevPtr) + Row * Pitch, Value, Width);
  return setError(cudaSuccess);
}
cudaError_t cudaMemset2DAsync(void *DevPtr, size_t Pitch, int Value,
                              size_t Width, size_t Height, cudaStream_t) {
  return cudaMemset2D(DevPtr, Pitch, Value, Width, Height);
}

// 3D: linear memory only (CUDA arrays are not emulated). Rows are padded as
// cudaMallocPitch pads them; a slice is ysize rows.
cudaError_t cudaMalloc3D(cudaPitchedPtr *PitchedDevPtr, cudaExtent Extent) {
  if (!PitchedDevPtr)
    return setError(cudaErrorInvalidValue);
  size_t Pitch = 0;
  void *Memory = nullptr;
  if (cudaError_t Error = cudaMallocPitch(&Memory, &Pitch, Extent.width,
                                          Extent.height * Extent.depth))
    return Error;
  *PitchedDevPtr = cudaPitchedPtr{Memory, Pitch, Extent.width, Extent.height};
  return setError(cudaSuccess);
}
cudaError_t cudaMemset3D(cudaPitchedPtr PitchedDevPtr, int Value,
                         cudaExtent Extent) {
  if (Extent.width > PitchedDevPtr.pitch ||
      (Extent.depth > 1 && Extent.height > PitchedDevPtr.ysize))
    return setError(cudaErrorInvalidValue);
  if (Extent.width && Extent.height && Extent.depth && !PitchedDevPtr.ptr)
    return setError(cudaErrorInvalidValue);
  size_t Slice = PitchedDevPtr.pitch * PitchedDevPtr.ysize;
  for (size_t Z = 0; Z < Extent.depth; ++Z)
    for (size_t Row = 0; Row < Extent.height; ++Row)
      std::memset(static_cast<char *>(PitchedDevPtr.ptr) + Z * Slice +
                      Row * PitchedDevPtr.pitch,
                  Value, Extent.width);
  return setError(cudaSuccess);
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr PitchedDevPtr, int Value,
                              cudaExtent Extent, cudaStream_t) {
  return cudaMemset3D(PitchedDevPtr, Value, Extent);
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  if (!P || !validKind(P->kind))
    return setError(P ? cudaErrorInvalidMemcpyDirection
                      : cudaErrorInvalidValue);
  if (P->srcArray || P->dstArray) {
    std::fprintf(stderr, "CUDA emulation: cudaMemcpy3D with a CUDA array is "
                         "not emulated; copy between linear (pitched) "
                         "memory\n");
    return setError(cudaErrorInvalidValue);
  }
  const cudaExtent &E = P->extent;
  const cudaPitchedPtr &S = P->srcPtr, &D = P->dstPtr;
  if (S.pitch < P->srcPos.x + E.width || D.pitch < P->dstPos.x + E.width ||
      (E.depth > 1 &&
       (S.ysize < P->srcPos.y + E.height || D.ysize < P->dstPos.y + E.height)))
    return setError(cudaErrorInvalidPitchValue);
  if (E.width && E.height && E.depth && (!S.ptr || !D.ptr))
    return setError(cudaErrorInvalidValue);
  for (size_t Z = 0; Z < E.depth; ++Z)
    for (size_t Row = 0; Row < E.height; ++Row) {
      size_t From = (P->srcPos.z + Z) * S.pitch * S.ysize +
                    (P->srcPos.y + Row) * S.pitch + P->srcPos.x;
      size_t To = (P->dstPos.z + Z) * D.pitch * D.ysize +
                  (P->dstPos.y + Row) * D.pitch + P->dstPos.x;
      std::memmove(static_cast<char *>(D.ptr) + To,
                   static_cast<const char *>(S.ptr) + From, E.width);
    }
  return setError(cudaSuccess);
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P, cudaStream_t) {
  return cudaMemcpy3D(P);
}

cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Count, size_t Offset,
                               cudaMemcpyKind Kind) {
  char *Address;
  if (cudaError_t Error = symbol(Symbol, Offset, Count, &Address))
    return setError(Error);
  return copy(Address, Src, Count, Kind);
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                                 size_t Offset, cudaMemcpyKind Kind) {
  char *Address;
  if (cudaError_t Error = symbol(Symbol, Offset, Count, &Address))
    return setError(Error);
  return copy(Dst, Address, Count, Kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol, const void *Src,
                                    size_t Count, size_t Offset,
                                    cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpyToSymbol(Symbol, Src, Count, Offset, Kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                      size_t Count, size_t Offset,
                                      cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(Dst, Symbol, Count, Offset, Kind);
}
cudaError_t cudaGetSymbolAddress(void **DevPtr, const void *Symbol) {
  char *Address;
  if (cudaError_t Error = symbol(Symbol, 0, 0, &Address))
    return setError(Error);
  *DevPtr = Address;
  return setError(cudaSuccess);
}
cudaError_t cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  if (!findVariable(Symbol, Size))
    return setError(cudaErrorInvalidSymbol);
  return setError(cudaSuccess);
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  size_t Page = sysconf(_SC_PAGESIZE);
  *Total = Page * sysconf(_SC_PHYS_PAGES);
  *Free = Page * sysconf(_SC_AVPHYS_PAGES);
  return setError(cudaSuccess);
}

// The device.

cudaError_t cudaGetDeviceCount(int *Count) {
  *Count = 1;
  return setError(cudaSuccess);
}
cudaError_t cudaSetDevice(int Device) {
  return setError(Device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int *Device) {
  *Device = 0;
  return setError(cudaSuccess);
}
// A device is not a peer of itself, and there is no other.
cudaError_t cudaDeviceCanAccessPeer(int *CanAccess, int Device, int Peer) {
  if (!CanAccess)
    return setError(cudaErrorInvalidValue);
  if (Device != 0 || Peer != 0)
    return setError(cudaErrorInvalidDevice);
  *CanAccess = 0;
  return setError(cudaSuccess);
}
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned) {
  return setError(cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceDisablePeerAccess(int) {
  return setError(cudaErrorPeerAccessNotEnabled);
}
static std::atomic<unsigned> DeviceFlags{0};
cudaError_t cudaSetDeviceFlags(unsigned Flags) {
  DeviceFlags = Flags;
  return setError(cudaSuccess);
}
cudaError_t cudaGetDeviceFlags(unsigned *Flags) {
  if (!Flags)
    return setError(cudaErrorInvalidValue);
  *Flags = DeviceFlags;
  return setError(cudaSuccess);
}
// Caches and shared memory banks are the host's: the preferences are
// accepted and change nothing.
static std::atomic<cudaFuncCache> CacheConfig{cudaFuncCachePreferNone};
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache Config) {
  CacheConfig = Config;
  return setError(cudaSuccess);
}
// There is no profiler to start.
cudaError_t cudaProfilerStart(void) { return setError(cudaSuccess); }
cudaError_t cudaProfilerStop(void) { return setError(cudaSuccess); }
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *Config) {
  if (!Config)
    return setError(cudaErrorInvalidValue);
  *Config = CacheConfig;
  return setError(cudaSuccess);
}
cudaError_t cudaDeviceSynchronize(void) { return setError(stickyError()); }
cudaError_t cudaDeviceReset(void) { return setError(cudaSuccess); }

// Device limits: the emulated device's heap is the host's and its threads'
// stacks are host stacks, so the limits are recorded and reported, not
// enforced.
static size_t DeviceLimits[] = {1024, 1 << 20, 8 << 20, 2, 2048, 0, 0};
cudaError_t cudaDeviceSetLimit(cudaLimit Limit, size_t Value) {
  if (unsigned(Limit) >= sizeof DeviceLimits / sizeof DeviceLimits[0])
    return setError(cudaErrorUnsupportedLimit);
  DeviceLimits[Limit] = Value;
  return setError(cudaSuccess);
}
cudaError_t cudaDeviceGetLimit(size_t *Value, cudaLimit Limit) {
  if (unsigned(Limit) >= sizeof DeviceLimits / sizeof DeviceLimits[0])
    return setError(cudaErrorUnsupportedLimit);
  *Value = DeviceLimits[Limit];
  return setError(cudaSuccess);
}
cudaError_t cudaDriverGetVersion(int *Version) {
  *Version = CUDART_VERSION;
  return setError(cudaSuccess);
}
cudaError_t cudaRuntimeGetVersion(int *Version) {
  *Version = CUDART_VERSION;
  return setError(cudaSuccess);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop, int Device) {
  if (Device != 0)
    return setError(cudaErrorInvalidDevice);
  std::memset(Prop, 0, sizeof *Prop);
  std::snprintf(Prop->name, sizeof Prop->name,
                "Enzyme CUDA emulation (host CPU)");
  size_t Free;
  cudaMemGetInfo(&Free, &Prop->totalGlobalMem);
  uint32_t Capability = deviceComputeCapability();
  Prop->major = Capability / 10;
  Prop->minor = Capability % 10;
  Prop->sharedMemPerBlock = SharedMemoryPerBlock;
  Prop->sharedMemPerBlockOptin = SharedMemoryPerBlockOptIn;
  Prop->sharedMemPerMultiprocessor = SharedMemoryPerBlockOptIn + 1024;
  Prop->regsPerBlock = Prop->regsPerMultiprocessor = 65536;
  Prop->warpSize = 32;
  Prop->memPitch = ~size_t(0) >> 1;
  Prop->maxThreadsPerBlock = MaxThreadsPerBlock;
  for (int I = 0; I < 3; ++I) {
    Prop->maxThreadsDim[I] = MaxBlockDim[I];
    Prop->maxGridSize[I] = MaxGridDim[I];
  }
  Prop->totalConstMem = 64 * 1024;
  Prop->multiProcessorCount = std::max(1u, std::thread::hardware_concurrency());
  Prop->maxThreadsPerMultiProcessor = 2048;
  Prop->maxBlocksPerMultiProcessor = 32;
  Prop->textureAlignment = 512;
  Prop->unifiedAddressing = 1;
  Prop->managedMemory = 1;
  Prop->concurrentManagedAccess = 1;
  Prop->canMapHostMemory = 1;
  Prop->integrated = 1;
  return setError(cudaSuccess);
}

cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                   int Device) {
  cudaDeviceProp Prop;
  if (cudaError_t Error = cudaGetDeviceProperties(&Prop, Device))
    return Error;
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    *Value = Prop.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
  case cudaDevAttrMaxBlockDimZ:
    *Value = Prop.maxThreadsDim[Attr - cudaDevAttrMaxBlockDimX];
    break;
  case cudaDevAttrMaxGridDimX:
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    *Value = Prop.maxGridSize[Attr - cudaDevAttrMaxGridDimX];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *Value = Prop.sharedMemPerBlock;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *Value = Prop.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrWarpSize:
    *Value = Prop.warpSize;
    break;
  case cudaDevAttrMultiProcessorCount:
    *Value = Prop.multiProcessorCount;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *Value = Prop.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *Value = Prop.minor;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *Value = Prop.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrTotalConstantMemory:
    *Value = Prop.totalConstMem;
    break;
  case cudaDevAttrManagedMemory:
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrConcurrentManagedAccess:
    *Value = 1;
    break;
  default:
    return setError(cudaErrorInvalidValue);
  }
  return setError(cudaSuccess);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr,
                                  const void *Function) {
  KernelHandle Kernel = findKernel(Function);
  if (!Kernel.Kernel)
    return setError(cudaErrorInvalidDeviceFunction);
  std::memset(Attr, 0, sizeof *Attr);
  Attr->sharedSizeBytes = Kernel.Kernel->StaticSharedBytes;
  Attr->maxThreadsPerBlock = MaxThreadsPerBlock;
  Attr->maxDynamicSharedSizeBytes =
      SharedMemoryPerBlock - Kernel.Kernel->StaticSharedBytes;
  uint32_t Capability = deviceComputeCapability();
  Attr->ptxVersion = Attr->binaryVersion = Capability;
  return setError(cudaSuccess);
}

cudaError_t cudaFuncSetAttribute(const void *Function, cudaFuncAttribute Attr,
                                 int Value) {
  KernelHandle Kernel = findKernel(Function);
  if (!Kernel.Kernel)
    return setError(cudaErrorInvalidDeviceFunction);
  if (Attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (Value < 0 || Kernel.Kernel->StaticSharedBytes + size_t(Value) >
                         SharedMemoryPerBlockOptIn)
      return setError(cudaErrorInvalidValue);
    DeviceState &D = device();
    std::lock_guard<std::mutex> Guard(D.Lock);
    D.MaxDynamicShared[Function] = Value;
  }
  return setError(cudaSuccess);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *NumBlocks,
                                                          const void *Function,
                                                          int BlockSize,
                                                          size_t) {
  if (!findKernel(Function).Kernel)
    return setError(cudaErrorInvalidDeviceFunction);
  if (BlockSize <= 0)
    return setError(cudaErrorInvalidValue);
  *NumBlocks = std::max(1, 2048 / BlockSize);
  return setError(cudaSuccess);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Function, int BlockSize, size_t DynamicShared,
    unsigned) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      NumBlocks, Function, BlockSize, DynamicShared);
}
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *Bytes,
                                                      const void *Function,
                                                      int NumBlocks,
                                                      int BlockSize) {
  KernelHandle Kernel = findKernel(Function);
  if (!Kernel.Kernel)
    return setError(cudaErrorInvalidDeviceFunction);
  if (!Bytes || NumBlocks <= 0 || BlockSize <= 0 ||
      BlockSize > MaxThreadsPerBlock)
    return setError(cudaErrorInvalidValue);
  *Bytes = sharedMemoryLimit(Kernel, Function) -
           std::min(sharedMemoryLimit(Kernel, Function),
                    size_t(Kernel.Kernel->StaticSharedBytes));
  return setError(cudaSuccess);
}
cudaError_t cudaFuncSetCacheConfig(const void *Function, cudaFuncCache) {
  return setError(findKernel(Function).Kernel ? cudaSuccess
                                              : cudaErrorInvalidDeviceFunction);
}

// Errors.

cudaError_t cudaGetLastError(void) {
  cudaError_t Error = cudaPeekAtLastError();
  LastError = cudaSuccess;
  return Error;
}
cudaError_t cudaPeekAtLastError(void) {
  return Sticky != cudaSuccess ? Sticky.load() : LastError;
}

// Streams and events: work is done when the call returns.

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Stream, unsigned Flags,
                                         int Priority) {
  if (!Stream)
    return setError(cudaErrorInvalidValue);
  // Out-of-range priorities are clamped, as CUDA does.
  Priority = std::clamp(Priority, GreatestStreamPriority, 0);
  *Stream = reinterpret_cast<cudaStream_t>(new StreamState{Flags, Priority});
  return setError(cudaSuccess);
}
cudaError_t cudaStreamCreate(cudaStream_t *Stream) {
  return cudaStreamCreateWithPriority(Stream, cudaStreamDefault, 0);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream, unsigned Flags) {
  return cudaStreamCreateWithPriority(Stream, Flags, 0);
}
cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  if (!isSpecialStream(Stream))
    delete reinterpret_cast<StreamState *>(Stream);
  return setError(cudaSuccess);
}
cudaError_t cudaStreamGetPriority(cudaStream_t Stream, int *Priority) {
  if (!Priority)
    return setError(cudaErrorInvalidValue);
  *Priority = isSpecialStream(Stream)
                  ? 0
                  : reinterpret_cast<StreamState *>(Stream)->Priority;
  return setError(cudaSuccess);
}
cudaError_t cudaStreamGetFlags(cudaStream_t Stream, unsigned *Flags) {
  if (!Flags)
    return setError(cudaErrorInvalidValue);
  *Flags = isSpecialStream(Stream)
               ? cudaStreamDefault
               : reinterpret_cast<StreamState *>(Stream)->Flags;
  return setError(cudaSuccess);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *Least, int *Greatest) {
  if (Least)
    *Least = 0;
  if (Greatest)
    *Greatest = GreatestStreamPriority;
  return setError(cudaSuccess);
}
/// Host work on a stream runs when it is queued, as kernels do.
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t Function,
                               void *UserData) {
  if (!Function)
    return setError(cudaErrorInvalidValue);
  Function(UserData);
  return setError(cudaSuccess);
}
cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                  cudaStreamCallback_t Callback, void *UserData,
                                  unsigned Flags) {
  if (!Callback || Flags)
    return setError(cudaErrorInvalidValue);
  Callback(Stream, stickyError(), UserData);
  return setError(cudaSuccess);
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return setError(stickyError());
}
cudaError_t cudaStreamQuery(cudaStream_t) { return setError(stickyError()); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return setError(cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(new Event);
  return setError(cudaSuccess);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) {
  return cudaEventCreate(E);
}
cudaError_t cudaEventDestroy(cudaEvent_t E) {
  delete reinterpret_cast<Event *>(E);
  return setError(cudaSuccess);
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t) {
  auto *Ev = reinterpret_cast<Event *>(E);
  Ev->Time = std::chrono::steady_clock::now();
  Ev->Recorded = true;
  return setError(cudaSuccess);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t E, cudaStream_t Stream,
                                     unsigned) {
  return cudaEventRecord(E, Stream);
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return setError(stickyError());
}
cudaError_t cudaEventQuery(cudaEvent_t) { return setError(stickyError()); }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                 cudaEvent_t End) {
  auto *S = reinterpret_cast<Event *>(Start);
  auto *E = reinterpret_cast<Event *>(End);
  if (!S->Recorded || !E->Recorded)
    return setError(cudaErrorInvalidResourceHandle);
  *Ms = std::chrono::duration<float, std::milli>(E->Time - S->Time).count();
  return setError(cudaSuccess);
}

// Launches.

cudaError_t cudaLaunchKernel(const void *Function, dim3 Grid, dim3 Block,
                             void **Args, size_t SharedBytes, cudaStream_t) {
  if (Sticky != cudaSuccess)
    return setError(Sticky);
  KernelHandle Kernel = findKernel(Function);
  if (cudaError_t Error =
          validateLaunch(Kernel, Function, Grid, Block, SharedBytes))
    return setError(Error);
  return setError(launchKernel(Kernel, Grid, Block, Args, SharedBytes));
}

/// The event that the launch attribute \p Attr records, or null.
static cudaEvent_t recordedEvent(const cudaLaunchAttribute &Attr) {
  if (Attr.id == cudaLaunchAttributeProgrammaticEvent)
    return Attr.val.programmaticEvent.event;
  if (Attr.id == cudaLaunchAttributeLaunchCompletionEvent)
    return Attr.val.launchCompletionEvent.event;
  return nullptr;
}

/// A cooperative launch's blocks must all be resident at once: as many as
/// the device's multiprocessors hold of them. (Kernels that synchronise the
/// grid do not compile for emulation, so its blocks need not wait for each
/// other.)
static cudaError_t checkCooperativeLaunch(const void *Function, dim3 Grid,
                                          dim3 Block, size_t SharedBytes) {
  int PerMultiprocessor = 0;
  if (cudaError_t Error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &PerMultiprocessor, Function, int(Block.x * Block.y * Block.z),
          SharedBytes))
    return Error;
  uint64_t Resident = uint64_t(PerMultiprocessor) *
                      std::max(1u, std::thread::hardware_concurrency());
  return uint64_t(Grid.x) * Grid.y * Grid.z > Resident
             ? cudaErrorCooperativeLaunchTooLarge
             : cudaSuccess;
}

cudaError_t cudaLaunchCooperativeKernel(const void *Function, dim3 Grid,
                                        dim3 Block, void **Args,
                                        size_t SharedBytes,
                                        cudaStream_t Stream) {
  if (cudaError_t Error =
          checkCooperativeLaunch(Function, Grid, Block, SharedBytes))
    return setError(Error);
  return cudaLaunchKernel(Function, Grid, Block, Args, SharedBytes, Stream);
}

/// The launch attributes of cudaLaunchKernelEx. Everything runs in order,
/// so the ones that order, prioritise or place work change nothing here;
/// events are recorded at the launch, which completes at once. Clusters
/// must tile the grid, as on a GPU; kernels that use them (cluster
/// registers, distributed shared memory) do not compile for emulation.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                const void *Function, void **Args) {
  if (!Config)
    return setError(cudaErrorInvalidValue);
  if (Config->numAttrs && !Config->attrs)
    return setError(cudaErrorInvalidValue);
  for (unsigned I = 0; I < Config->numAttrs; ++I) {
    const cudaLaunchAttribute &Attr = Config->attrs[I];
    switch (Attr.id) {
    case cudaLaunchAttributeClusterDimension: {
      const auto &C = Attr.val.clusterDim;
      if (!C.x || !C.y || !C.z || Config->gridDim.x % C.x ||
          Config->gridDim.y % C.y || Config->gridDim.z % C.z ||
          uint64_t(C.x) * C.y * C.z > 8)
        return setError(cudaErrorInvalidClusterSize);
      break;
    }
    case cudaLaunchAttributeProgrammaticEvent:
    case cudaLaunchAttributeLaunchCompletionEvent:
      if (!recordedEvent(Attr))
        return setError(cudaErrorInvalidResourceHandle);
      break;
    case cudaLaunchAttributeCooperative:
      if (Attr.val.cooperative)
        if (cudaError_t Error = checkCooperativeLaunch(
                Function, Config->gridDim, Config->blockDim,
                Config->dynamicSmemBytes))
          return setError(Error);
      break;
    default:
      break;
    }
  }
  cudaError_t Error =
      cudaLaunchKernel(Function, Config->gridDim, Config->blockDim, Args,
                       Config->dynamicSmemBytes, Config->stream);
  if (Error == cudaSuccess)
    for (unsigned I = 0; I < Config->numAttrs; ++I)
      if (cudaEvent_t Event = recordedEvent(Config->attrs[I]))
        cudaEventRecord(Event, Config->stream);
  return Error;
}

/// `kernel<<<Grid, Block, Shared, Stream>>>(...)`: clang pushes the
/// configuration, then calls the host stub, which pops it and launches.
unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block, size_t SharedBytes,
                                     void *Stream) {
  PendingLaunches.push_back({Grid, Block, SharedBytes, Stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block,
                                       size_t *SharedBytes, void *Stream) {
  if (PendingLaunches.empty())
    return cudaErrorMissingConfiguration;
  LaunchConfiguration Config = PendingLaunches.back();
  PendingLaunches.pop_back();
  *Grid = Config.Grid;
  *Block = Config.Block;
  *SharedBytes = Config.SharedBytes;
  *static_cast<void **>(Stream) = Config.Stream;
  return cudaSuccess;
}

} // extern "C"
