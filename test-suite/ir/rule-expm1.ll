; expm1: d/dx expm1(x) = expm1(x) + 1.
; The partial uses the primal result, which the augmented forward pass pushes
; on the tape and the reverse pass pops.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @expm1(double)

define double @f(double %x) {
  %y = call double @expm1(double %x)
  ret double %y
}

define double @test(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double } @f.grad(double %x)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal double @f.aug(
; CHECK-SAME:    double [[X:%[0-9]+]], ptr
; CHECK:         %y = tail call double @expm1(double [[X]])
; CHECK:         store double %y, ptr
; CHECK:         ret double %y

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[R:%[0-9]+]] = load double, ptr
; CHECK-NOT:     call double @expm1(
; CHECK:         [[P:%[0-9]+]] = fadd double [[R]], 1.000000e+00
; CHECK:         fmul double [[P]], [[DRET]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
