; In GPU device code the adjoint of a read is added atomically where other
; threads may read the same memory, and only there: a read of the thread's
; own stack (an alloca) takes a plain addition, a write none. The shadow a
; caller passes may itself be a local variable, where PTX atomics are
; undefined, so the atomic addition is guarded by isspacep.local. (The
; local array's shadow lives on the device heap, from malloc, since device
; code has no aligned_alloc.)
; RUN: %opt_enzyme -passes=enzyme -enzyme-inline-device-derivatives=false -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %p, ptr %out, i64 %k) {
  %buf = alloca [4 x double]
  %x = load double, ptr %p
  %slot = getelementptr [4 x double], ptr %buf, i64 0, i64 %k
  store double %x, ptr %slot
  %y = load double, ptr %slot
  %sq = fmul double %y, %y
  store double %sq, ptr %out
  ret void
}

define void @grad(ptr %p, ptr %dp, ptr %out, ptr %dout, i64 %k) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, ptr %out, ptr %dout, i64 %k)
  ret void
}

; CHECK-LABEL: define internal void @f.grad(
; CHECK-NOT:     aligned_alloc
; CHECK:         @malloc(
; CHECK-NOT:     atomicrmw
; CHECK:         [[LOCAL:%.*]] = call i1 @llvm.nvvm.isspacep.local(ptr %3)
; CHECK:         br i1 [[LOCAL]], label %[[PLAIN:[0-9]+]], label %[[SHARED:[0-9]+]]
; CHECK:       [[PLAIN]]:
; CHECK-NOT:     atomicrmw
; CHECK:         store double {{.*}}, ptr %3
; CHECK:       [[SHARED]]:
; CHECK-NEXT:    atomicrmw fadd ptr %3, double {{.*}} monotonic
; CHECK-NOT:     atomicrmw
; CHECK:         ret void
