// 3D linear memory: cudaMalloc3D (padded rows, slices of ysize rows),
// cudaMemset3D and cudaMemcpy3D between host and device, with positions
// and a sub-volume, and a kernel that indexes the pitched volume.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// CHECK-NOT: FAIL
// CHECK: all checks passed
#include "../Inputs/check.h"

constexpr int NX = 5, NY = 4, NZ = 3;

// V[z][y][x] = 2 V[z][y][x] + z.
__global__ void scale(cudaPitchedPtr V) {
  int X = threadIdx.x, Y = threadIdx.y, Z = threadIdx.z;
  char *Slice = static_cast<char *>(V.ptr) + Z * V.pitch * V.ysize;
  double *Row = reinterpret_cast<double *>(Slice + Y * V.pitch);
  Row[X] = 2 * Row[X] + Z;
}

int main() {
  double Host[NZ][NY][NX], Back[NZ][NY][NX];
  for (int Z = 0; Z < NZ; ++Z)
    for (int Y = 0; Y < NY; ++Y)
      for (int X = 0; X < NX; ++X)
        Host[Z][Y][X] = 100 * Z + 10 * Y + X;
  cudaExtent Extent = make_cudaExtent(NX * sizeof(double), NY, NZ);
  cudaPitchedPtr Device;
  CUDA_CHECK(cudaMalloc3D(&Device, Extent));
  check("rows are padded", Device.pitch >= NX * sizeof(double) &&
                               Device.xsize == NX * sizeof(double) &&
                               Device.ysize == NY);
  CUDA_CHECK(cudaMemset3D(Device, 0, Extent));

  cudaMemcpy3DParms ToDevice = {};
  ToDevice.srcPtr = make_cudaPitchedPtr(Host, NX * sizeof(double), NX, NY);
  ToDevice.dstPtr = Device;
  ToDevice.extent = Extent;
  ToDevice.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&ToDevice));
  scale<<<1, dim3(NX, NY, NZ)>>>(Device);
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaMemcpy3DParms ToHost = {};
  ToHost.srcPtr = Device;
  ToHost.dstPtr = make_cudaPitchedPtr(Back, NX * sizeof(double), NX, NY);
  ToHost.extent = Extent;
  ToHost.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3DAsync(&ToHost, 0));
  CUDA_CHECK(cudaStreamSynchronize(0));
  bool Ok = true;
  for (int Z = 0; Z < NZ; ++Z)
    for (int Y = 0; Y < NY; ++Y)
      for (int X = 0; X < NX; ++X)
        Ok &= Back[Z][Y][X] == 2 * Host[Z][Y][X] + Z;
  check("copied in, scaled, copied back", Ok);

  // A 2x2x2 block from (1, 1, 1) of the volume to (0, 2, 1) of the host
  // array, after clearing a sub-volume of the device (x from 2 on).
  cudaExtent Part = make_cudaExtent(3 * sizeof(double), NY, NZ);
  cudaPitchedPtr Shifted = Device;
  Shifted.ptr = static_cast<char *>(Device.ptr) + 2 * sizeof(double);
  CUDA_CHECK(cudaMemset3DAsync(Shifted, 0, Part, 0));
  double Sub[NZ][NY][NX] = {};
  cudaMemcpy3DParms Block = {};
  Block.srcPtr = Device;
  Block.srcPos = make_cudaPos(1 * sizeof(double), 1, 1);
  Block.dstPtr = make_cudaPitchedPtr(Sub, NX * sizeof(double), NX, NY);
  Block.dstPos = make_cudaPos(0, 2, 1);
  Block.extent = make_cudaExtent(2 * sizeof(double), 2, 2);
  Block.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&Block));
  bool BlockOk = true;
  for (int Z = 0; Z < NZ; ++Z)
    for (int Y = 0; Y < NY; ++Y)
      for (int X = 0; X < NX; ++X) {
        bool Inside = Z >= 1 && Z < 3 && Y >= 2 && Y < 4 && X < 2;
        double Source = X + 1 >= 2 ? 0
                                   : 2 * Host[Z][Y - 1][X + 1] + Z;
        BlockOk &= Sub[Z][Y][X] == (Inside ? Source : 0);
      }
  check("a sub-volume at positions, after a partial memset", BlockOk);
  CUDA_CHECK(cudaFree(Device.ptr));
  return finish();
}
