// The heterogeneous example of Enzyme's CUDA guide without its hand-written
// pair: __enzyme_autodiff of the host loop `iter` alone. The toolchain lists
// `collide` as launched from differentiated host code, defines its
// derivative kernels in the device compilation and launches them from the
// custom gradient it gives the kernel's host stub. Checked against the
// adjoint worked out by hand, as for the hand-written pair.
// REQUIRES: cuda-emulation
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 %s -o %t.gpu && %t.gpu | FileCheck %s %}
// Relocatable device code with the new offload driver registers the
// derivative kernels through offloading entries (launch-new-offload-driver.test).
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 --offload-new-driver -fgpu-rdc %s -o %t.rdc.gpu && %t.rdc.gpu | FileCheck %s %}
// The device compilation defines the two derivative kernels (the ptx_kernel
// calling convention as well as the annotation) and their info.
// RUN: %clangxx_enzyme -fenzyme -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEVICE
// CHECK-NOT: FAIL
// CHECK: all checks passed
// DEVICE-DAG: @_enzyme_kernel_info__Z7collidePfS_ = weak_odr addrspace(1) global [4 x i64] [i64 {{[0-9]+}}, i64 3, i64 0, i64 0]
// DEVICE-DAG: define {{.*}}ptx_kernel void @_enzyme_kernel_augmented__Z7collidePfS_(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}})
// DEVICE-DAG: define {{.*}}ptx_kernel void @_enzyme_kernel_reverse__Z7collidePfS_(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}})
// DEVICE-DAG: !{ptr @_enzyme_kernel_augmented__Z7collidePfS_, !"kernel", i32 1}
// DEVICE-DAG: !{ptr @_enzyme_kernel_reverse__Z7collidePfS_, !"kernel", i32 1}
// DEVICE-NOT: call {{.*}}@malloc
// Forward mode of the same `iter` (__enzyme_fwddiff): the tangent kernel,
// which computes the primal and its tangents, needs no tape.
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O0 -DFORWARD %s -o %t.fwd.O0 && %t.fwd.O0 | FileCheck %s
// RUN: %clangxx_enzyme -fenzyme -fcuda-emulate -O2 -DFORWARD %s -o %t.fwd.O2 && %t.fwd.O2 | FileCheck %s
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 -DFORWARD %s -o %t.fwd.gpu && %t.fwd.gpu | FileCheck %s %}
// RUN: %if gpu %{ %clangxx_enzyme -fenzyme -O2 -DFORWARD --offload-new-driver -fgpu-rdc %s -o %t.fwd.rdc.gpu && %t.fwd.rdc.gpu | FileCheck %s %}
// RUN: %clangxx_enzyme -fenzyme -O2 -DFORWARD --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TANGENT
// TANGENT-DAG: @_enzyme_kernel_tangent_info__Z7collidePfS_ = weak_odr addrspace(1) global [4 x i64] [i64 0, i64 3, i64 0, i64 0]
// TANGENT-DAG: define {{.*}}ptx_kernel void @_enzyme_kernel_tangent__Z7collidePfS_(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i32 {{.*}})
// TANGENT-DAG: !{ptr @_enzyme_kernel_tangent__Z7collidePfS_, !"kernel", i32 1}
// TANGENT-NOT: _enzyme_kernel_augmented
// TANGENT-NOT: call {{.*}}@malloc

// As the seed writes it, up to the hand-written pair.
__device__
void collide_body(float* src, float* dst) {
    size_t idx = threadIdx.x;
    if (idx < 100) {
        dst[idx] += src[idx] * src[idx] - 3 * src[idx];
    }
}

// GPU Kernel
__global__
void collide(float* src, float* dst) {
    collide_body(src, dst);
}

// Wrapper CPU function which calls kernel
__attribute__((noinline))
void kern(float* src, float* dst) {
    collide<<<1, 100>>>(src, dst);
}

// Main CPU code that calls wrapper function
void iter(int nTimeSteps, float* src, float* dst) {
    for (unsigned int i=0; i<nTimeSteps/2; i++) {
        kern(src, dst);
        kern(dst, src);
    }
}

#ifdef FORWARD
template <typename... Args>
void __enzyme_fwddiff(Args...);

void tangent_iter(int nTimeSteps, float* src, float* dsrc, float* dst, float* ddst) {
    __enzyme_fwddiff(iter, nTimeSteps, src, dsrc, dst, ddst);
}

#include "Inputs/seed-heterogeneous-tangent.cu"
#else
template <typename... Args>
void __enzyme_autodiff(Args...);

void grad_iter(int nTimeSteps, float* src, float* dsrc, float* dst, float* ddst) {
    __enzyme_autodiff(iter, nTimeSteps, src, dsrc, dst, ddst);
}

#include "Inputs/seed-heterogeneous-main.cu"
#endif
