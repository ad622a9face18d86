; A load through a duplicated pointer: the reverse pass reads the shadow,
; adds the load's adjoint and stores it back. f never writes *p, so the
; reverse pass loads the value again (tape-overwritten-load.ll has the case
; where the memory changes).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

define double @test(ptr %p, ptr %dp) {
  %m = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %p, ptr %dp)
  ret double %g
}

; CHECK-LABEL: define double @test(
; CHECK:         call void @f.grad(ptr %p, ptr %dp)
; CHECK:         ret double 0.000000e+00

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %v = load double, ptr
; CHECK-NOT:     store
; CHECK:         ret double

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr [[P:%[0-9]+]], ptr [[DP:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[V:%.*]] = load double, ptr [[P]]
; CHECK:         [[T:%[0-9]+]] = fmul double [[V]], [[DRET]]
; CHECK:         [[DV:%[0-9]+]] = fadd reassoc double [[T]], [[T]]
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[DP]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[DV]]
; CHECK:         store double [[NEW]], ptr [[DP]]
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
