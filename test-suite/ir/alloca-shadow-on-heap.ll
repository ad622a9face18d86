; A stack slot that survives into the differentiated code (its address goes
; to a noinline callee) gets a zeroed shadow on the heap (calloc), since the
; reverse pass runs after the forward frame is gone; the shadow is passed to
; the callee's augmented and reverse functions and freed by the reverse of
; the alloca's block. f(x) = 3x through memory.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define internal void @scale(ptr %p, double %k) noinline {
  %v = load double, ptr %p
  %w = fmul double %v, %k
  store double %w, ptr %p
  ret void
}

define double @f(double %x) {
  %buf = alloca double
  store double %x, ptr %buf
  call void @scale(ptr %buf, double 3.0)
  %r = load double, ptr %buf
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %buf = alloca double
; The block holds the shadow at the local's address modulo 64.
; CHECK:         %shadow.mem = tail call {{.*}}ptr @aligned_alloc(i64 64, i64 128)
; CHECK:         [[AT:%[0-9]+]] = ptrtoint ptr %buf to i64
; CHECK:         [[RES:%[0-9]+]] = and i64 [[AT]], 56
; CHECK:         %shadow.local = getelementptr i8, ptr %shadow.mem, i64 [[RES]]
; CHECK:         call void @scale.aug(ptr {{.*}}%buf, double 3.000000e+00, ptr %shadow.local, ptr
; CHECK:         store ptr %shadow.local, ptr
; CHECK:         ret double

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double {{%[0-9]+}}, double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:         load ptr, ptr [[TAPE]]
; CHECK:         [[SH:%[0-9]+]] = load ptr, ptr
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[SH]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[DRET]]
; CHECK:         store double [[NEW]], ptr [[SH]]
; CHECK:         call void @scale.rev(ptr {{%[0-9]+}}, double 3.000000e+00, ptr {{.*}}[[SH]], ptr
; CHECK:         [[DX:%[0-9]+]] = load double, ptr [[SH]]
; CHECK:         [[BLOCK:%[0-9]+]] = {{.*}}call {{.*}}ptr @llvm.ptrmask.p0.i64(ptr {{.*}}[[SH]], i64 -64)
; CHECK:         call void @free(ptr {{.*}}[[BLOCK]])
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
