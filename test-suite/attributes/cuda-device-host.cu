// REQUIRES: cuda
// A CUDA source is compiled twice, for the device and for the host; each
// registration is emitted only where its function or variable exists:
// __device__ on the device, plain host code on the host, __host__
// __device__ on both, a __global__ kernel on the device (the host has only
// its launch stub).
// RUN: %clangxx_enzyme -Werror -O2 --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEVICE
// RUN: %clangxx_enzyme -Werror -O2 --cuda-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
// RUN: %clangxx_enzyme -Werror -fenzyme -O2 -c %s -o %t.o

__device__ double dev_aug(double x) { return x; }
__device__ double dev_rev(double x) { return x; }
__device__ __attribute__((enzyme_inactive)) double dev_only(double x) { return x; }
__attribute__((enzyme_inactive)) double host_only(double x) { return x; }
__host__ __device__ __attribute__((enzyme_inactive)) double both(double x) { return x; }
__device__ __attribute__((enzyme("augment", dev_aug), enzyme("gradient", dev_rev)))
double dev_f(double x) { return x; }
__device__ double dev_scale __attribute__((enzyme_inactive));
double host_scale __attribute__((enzyme_inactive));

__global__ void __attribute__((enzyme_inactive)) kernel(double *x) {
  *x = dev_only(*x) + both(*x) + dev_f(*x) * dev_scale;
}

// DEVICE-DAG: @__enzyme_inactivefn_dev_only_{{[0-9]+}} = internal addrspace(1) global [1 x ptr] [ptr @_Z8dev_onlyd]
// DEVICE-DAG: @__enzyme_inactivefn_both_{{[0-9]+}} = internal addrspace(1) global [1 x ptr] [ptr @_Z4bothd]
// DEVICE-DAG: @__enzyme_register_gradient_dev_f_{{[0-9]+}} = internal addrspace(1) global [3 x ptr] [ptr @_Z5dev_fd, ptr @_Z7dev_augd, ptr @_Z7dev_revd]
// DEVICE-DAG: @__enzyme_inactive_global_dev_scale_{{[0-9]+}} = internal addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @dev_scale to ptr)]
// DEVICE-DAG: @__enzyme_inactivefn_kernel_{{[0-9]+}} = internal addrspace(1) global [1 x ptr] [ptr @_Z6kernelPd]
// DEVICE-DAG: @llvm.compiler.used = {{.*}}@__enzyme_inactivefn_dev_only_
// DEVICE-NOT: __enzyme_inactivefn_host_only
// DEVICE-NOT: __enzyme_inactive_global_host_scale

// HOST-DAG: @__enzyme_inactivefn_host_only_{{[0-9]+}} = internal global [1 x ptr] [ptr @_Z9host_onlyd]
// HOST-DAG: @__enzyme_inactivefn_both_{{[0-9]+}} = internal global [1 x ptr] [ptr @_Z4bothd]
// HOST-DAG: @__enzyme_inactive_global_host_scale_{{[0-9]+}} = internal global [1 x ptr] [ptr @host_scale]
// HOST-DAG: @llvm.compiler.used = {{.*}}@__enzyme_inactivefn_host_only_
// HOST-NOT: __enzyme_inactivefn_dev_only
// HOST-NOT: __enzyme_register_gradient
// HOST-NOT: __enzyme_inactivefn_kernel
