// A launcher registration (__enzyme_differentiable_launcher_NAME) lists its
// kernels for reverse mode and, where forward mode can differentiate them,
// for forward mode (-enzyme-optional-tangent-kernels, launch-scan.test): a
// kernel that only reverse mode can differentiate keeps its file building.
// The device compilation warns, defines an empty stand-in for the tangent
// kernel (the host registers it) and marks the kernel's tangent info
// unavailable (first word all ones), which stops a forward launch with a
// message (runtime/CudaLaunch.c). Here assembly that computes on a double,
// which no mode differentiates, stands for such a kernel.
// REQUIRES: cuda
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm -mllvm -enzyme-optional-tangent-kernels=_Z6opaquePd %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.ll
// WARN: launch-optional-tangent.cu:{{[0-9]+}}:{{[0-9]+}}: warning: cannot differentiate kernel 'opaque(double*)' in forward mode, which differentiated host code launches: {{.*}}assembly{{.*}}; only reverse mode can differentiate the launchers that name it
// WARN-NOT: error:
// CHECK: @_enzyme_kernel_tangent_info__Z6opaquePd = weak_odr addrspace(1) global [4 x i64] [i64 -1, i64 0, i64 0, i64 0]
// CHECK: define ptx_kernel void @_enzyme_kernel_tangent__Z6opaquePd(ptr %0)
// CHECK-NEXT: ret void

__global__ void opaque(double *X) {
  double Y;
  asm("cvt.rzi.f64.f64 %0, %1;" : "=d"(Y) : "d"(X[threadIdx.x]));
  X[threadIdx.x] = Y;
}
