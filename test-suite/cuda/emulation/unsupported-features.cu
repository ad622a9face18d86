// Device code the emulator cannot run is a compile-time error at the line
// that uses it, never a program that runs and computes something else.
// REQUIRES: cuda-emulation
// RUN: rm -f %t.o
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DASM -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: not %clangxx_enzyme -fcuda-emulate -O0 -DASM -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DTEXTURE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TEXTURE
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DGRID_SYNC -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=GRID_SYNC
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DEXTERN_FUNCTION -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=EXTERN_FUNCTION
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DEXTERN_VARIABLE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=EXTERN_VARIABLE
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DAUTODIFF -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=AUTODIFF
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -fgpu-rdc -DDEVICE_LAUNCH -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEVICE_LAUNCH
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 --cuda-device-only -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DEVICE_ONLY
// The errors name the line in this file, also for code inlined from CUDA's
// headers, and nothing is written.
// RUN: not test -e %t.o

#ifdef ASM
__global__ void event(int *X) {
  X[0] = 1;
  // ASM: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: CUDA emulation cannot run inline PTX assembly ('pmevent 1;')
  asm volatile("pmevent 1;");
}
#endif

#ifdef TEXTURE
__global__ void fetch(cudaTextureObject_t Texture, float *Out) {
  // TEXTURE: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: CUDA emulation does not support texture fetches
  Out[threadIdx.x] = tex1Dfetch<float>(Texture, threadIdx.x);
}
#endif

#ifdef DEVICE_LAUNCH
// What a launch in device code calls (relocatable device code only).
__global__ void launcher(int *X) {
  // DEVICE_LAUNCH: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: CUDA emulation does not support dynamic parallelism (a kernel launched from device code)
  X[0] = cudaGetParameterBuffer(8, 8) != nullptr;
}
#endif

#ifdef GRID_SYNC
#include <cooperative_groups.h>
__global__ void gridSync(int *X) {
  X[threadIdx.x] = 1;
  // GRID_SYNC: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: CUDA emulation does not support grid-wide cooperative-groups synchronisation
  cooperative_groups::this_grid().sync();
}
#endif

#ifdef EXTERN_FUNCTION
__device__ float elsewhere(float);
__global__ void callElsewhere(float *X) {
  // EXTERN_FUNCTION: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: device code calls 'elsewhere(float)', which has no definition in this file
  X[0] = elsewhere(X[1]);
}
#endif

#ifdef EXTERN_VARIABLE
extern __device__ float Table[16];
__global__ void readTable(float *X) {
  // EXTERN_VARIABLE: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: the device variable 'Table' has no definition in this file
  X[threadIdx.x] = Table[threadIdx.x];
}
#endif

#ifdef AUTODIFF
extern __device__ void __enzyme_autodiff(void *, ...);
__device__ void square(double *X, double *Y) { *Y = *X * *X; }
__global__ void gradient(double *X, double *DX, double *Y, double *DY) {
  // AUTODIFF: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: '__enzyme_autodiff' in device code needs -fenzyme to be differentiated
  __enzyme_autodiff((void *)square, X, DX, Y, DY);
}
#endif

// DEVICE_ONLY: error: -fcuda-emulate {{.*}} does not support '--cuda-device-only'{{$}}
// Dynamic parallelism without relocatable device code is clang's own error.
// RUN: not %clangxx_enzyme -fcuda-emulate -O2 -DDYNAMIC -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DYNAMIC
#ifdef DYNAMIC
__global__ void child(int *X) { X[0] = 1; }
// DYNAMIC: unsupported-features.cu:[[#@LINE+1]]:{{[0-9]+}}: error: reference to __global__ function 'child' in __global__ function
__global__ void parent(int *X) { child<<<1, 1>>>(X); }
#endif
__global__ void fine(int *X) { X[threadIdx.x] = threadIdx.x; }
