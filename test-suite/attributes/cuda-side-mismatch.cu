// REQUIRES: cuda
// A __device__ function's derivative must exist on the device too.
// RUN: not %clangxx_enzyme --cuda-device-only -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

double host_fwd(double x, double dx) { return dx; }

// CHECK: cuda-side-mismatch.cu:[[@LINE+1]]:27: error: 'host_fwd' is not available in device code, where 'dev_f' is; give both the same __host__/__device__ attributes
__device__ __attribute__((enzyme("forward", host_fwd))) double dev_f(double);
