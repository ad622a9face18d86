; enzyme-cuda-retarget turns a device module into host code: special
; registers, barriers and shuffles become runtime calls, __shared__ variables
; offsets into the block's shared memory (dynamic after static), scoped
; atomics plain atomics, and the kernel gets an entry point and a
; registration record; everything of the device module becomes internal.
; RUN: enzyme-cuda-retarget %s -o %t.bc --id-file=%t.id --cuda-version=13000 --triple=x86_64-unknown-linux-gnu
; RUN: llvm-dis %t.bc -o - | FileCheck %s
; RUN: FileCheck %s --check-prefix=ID < %t.id
; ID: enzyme-cuda-emulation:kernel.cu:{{[0-9A-F]+}}

; CHECK: @counter = internal addrspace(1) externally_initialized global i32 0
; The registration record: ABI 1, CUDA 13.0, sm_75, one kernel using 257
; bytes of static shared memory, one variable, 272 bytes of static shared
; memory in all (dynamic shared memory starts there, 16-byte aligned).
; CHECK: @__cudaemu.kernels = private constant {{.*}} { ptr @__cudaemu.name, ptr @__cudaemu_entry.kernel, i64 257 }
; CHECK: @__cudaemu.module = private constant {{.*}} { i32 1, i32 13000, i32 75, ptr @__cudaemu.id, i32 1, i32 1, ptr @__cudaemu.kernels, ptr @__cudaemu.variables, i64 272 }
; CHECK: @llvm.global_ctors = appending global {{.*}} @__cudaemu.register

source_filename = "kernel.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counter = dso_local addrspace(1) externally_initialized global i32 0, align 4
@tile = internal addrspace(3) global [64 x float] undef, align 4
@flag = internal addrspace(3) global i8 undef, align 1
@dynamic = external addrspace(3) global [0 x double], align 8
@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00", align 1

; CHECK-LABEL: define internal void @kernel(
; CHECK-NOT: target-cpu
define dso_local void @kernel(ptr %out, i32 %n) #0 {
; CHECK: %shared.memory = call ptr @__cudaemu_shared_memory()
; CHECK-DAG: getelementptr inbounds i8, ptr %shared.memory, i64 0
; CHECK-DAG: getelementptr inbounds i8, ptr %shared.memory, i64 256
; CHECK-DAG: getelementptr inbounds i8, ptr %shared.memory, i64 272
; CHECK: call i32 @__cudaemu_read_register(i32 0)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  store float 1.0, ptr addrspace(3) %slot, align 4
  store i8 1, ptr addrspace(3) @flag, align 1
  store double 2.0, ptr addrspace(3) @dynamic, align 8
; CHECK: call i32 @__cudaemu_barrier(i32 0, i32 0)
  call void @llvm.nvvm.barrier0()
; CHECK: call i64 @__cudaemu_shuffle(i32 2, i32 -1, i32 1065353216, i32 1, i32 31)
  %v = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float 1.0, i32 1, i32 31)
; CHECK: atomicrmw add ptr addrspace(1) @counter, i32 1 monotonic
  %old = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p1(ptr addrspace(1) @counter, i32 1)
; CHECK: call i32 @__cudaemu_vprintf(ptr @.fmt, ptr null)
  %p = call i32 @vprintf(ptr @.fmt, ptr null)
  store float %v, ptr %out, align 4
  ret void
}

; The entry point loads each argument from cudaLaunchKernel's array.
; CHECK-LABEL: define internal void @__cudaemu_entry.kernel(ptr %0)
; CHECK: %[[AT0:.*]] = getelementptr ptr, ptr %0, i64 0
; CHECK: %[[SLOT0:.*]] = load ptr, ptr %[[AT0]]
; CHECK: %[[ARG0:.*]] = load ptr, ptr %[[SLOT0]], align 1
; CHECK: %[[AT1:.*]] = getelementptr ptr, ptr %0, i64 1
; CHECK: %[[SLOT1:.*]] = load ptr, ptr %[[AT1]]
; CHECK: %[[ARG1:.*]] = load i32, ptr %[[SLOT1]], align 1
; CHECK: call void @kernel(ptr %[[ARG0]], i32 %[[ARG1]])
; CHECK-NOT: nvvm

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p1(ptr addrspace(1), i32)
declare i32 @vprintf(ptr, ptr)

attributes #0 = { convergent "target-cpu"="sm_75" "target-features"="+ptx85,+sm_75" }

!nvvm.annotations = !{!0}
!0 = !{ptr @kernel, !"kernel", i32 1}
