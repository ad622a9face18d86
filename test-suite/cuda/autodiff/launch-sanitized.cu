// Host code that launches kernels, built with AddressSanitizer: its request
// waits for the link, after the sanitizer moved the locals whose address
// escapes (the device pointer filled by cudaMalloc, the host buffer a copy
// writes) into a frame at addresses computed from integers, which the
// engine cannot give shadows. The gradient came out zero without a word;
// now the link stops with an error that names the request, the call and the
// cause, and says what to do.
// REQUIRES: cuda-emulation
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O1 -g -fsanitize=address %s -o %t 2>&1 | FileCheck %s
// RUN: not %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -fsanitize=address %s -o %t 2>&1 | FileCheck %s
// Without the sanitizer, the same program is differentiated.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O1 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN
// CHECK: error: {{.*}}cannot differentiate 'loss(double const*)': a call that moves derivatives is passed a pointer {{(read from memory at|to memory at)}} an address computed from an integer, which the engine cannot give a shadow; the derivatives it moves there would be lost. If the code is instrumented (-fsanitize=address moves locals to such addresses) and the request waits for the link (as requests that reach kernel launches do), build without the sanitizer
// PLAIN: 3 3 3 3
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup;

__global__ void triple(double *X) { X[threadIdx.x] *= 3; }

double loss(const double *Host) {
  double *Device;
  cudaMalloc(&Device, 4 * sizeof(double));
  cudaMemcpy(Device, Host, 4 * sizeof(double), cudaMemcpyHostToDevice);
  triple<<<1, 4>>>(Device);
  double Back[4];
  cudaMemcpy(Back, Device, sizeof Back, cudaMemcpyDeviceToHost);
  cudaFree(Device);
  return Back[0] + Back[1] + Back[2] + Back[3];
}

int main() {
  double Host[4] = {1, 2, 3, 4}, DHost[4] = {};
  __enzyme_autodiff((void *)loss, enzyme_dup, Host, DHost);
  std::printf("%g %g %g %g\n", DHost[0], DHost[1], DHost[2], DHost[3]);
}
