; copysign(x, y): d/dx = sign(x) * sign(y) (as copysign(1, x) * copysign(1, y)); d/dy = 0.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @copysign(double, double)

define double @f(double %x, double %y) {
  %r = call double @copysign(double %x, double %y)
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
; CHECK-DAG:     [[SX:%[0-9]+]] = tail call double @llvm.copysign.f64(double 1.000000e+00, double [[X]])
; CHECK-DAG:     [[SY:%[0-9]+]] = tail call double @llvm.copysign.f64(double 1.000000e+00, double [[Y]])
; CHECK:         [[PX:%[0-9]+]] = fmul double [[SX]], [[SY]]
; CHECK:         [[GX:%[0-9]+]] = fmul double [[PX]], [[DRET]]
; CHECK:         [[GY:%[0-9]+]] = fmul double [[DRET]], 0.000000e+00
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
