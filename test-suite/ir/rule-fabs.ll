; fabs: d/dx |x| = copysign(1, x).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @fabs(double)

define double @f(double %x) {
  %y = call double @fabs(double %x)
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

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[SGN:%[0-9]+]] = tail call double @llvm.copysign.f64(double 1.000000e+00, double [[X]])
; CHECK:         fmul double [[SGN]], [[DRET]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
