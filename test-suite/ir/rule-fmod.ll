; fmod(x, y) = x - trunc(x/y) * y: d/dx = 1 (the adjoint itself), d/dy = -trunc(x/y).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @fmod(double, double)

define double @f(double %x, double %y) {
  %r = call double @fmod(double %x, double %y)
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define { double, double } @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double, double } @f.grad(double %x, double %y)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[Q:%[0-9]+]] = fdiv double [[X]], [[Y]]
; CHECK:         [[T:%[0-9]+]] = tail call double @llvm.trunc.f64(double [[Q]])
; CHECK:         [[GX:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; CHECK:         insertvalue { double, double } undef, double [[GX]], 0
; CHECK:         [[M:%[0-9]+]] = fmul double [[T]], [[DRET]]
; CHECK:         fsub double 0.000000e+00, [[M]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
