; fdiv x / y: d/dx = adjoint / y, d/dy = -(adjoint * x / (y*y)).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[GX:%[0-9]+]] = fdiv double [[DRET]], [[Y]]
; CHECK:         [[YY:%[0-9]+]] = fmul double [[Y]], [[Y]]
; CHECK:         [[NX:%[0-9]+]] = fneg double [[X]]
; CHECK:         [[Q:%[0-9]+]] = fdiv double [[NX]], [[YY]]
; CHECK:         [[GY:%[0-9]+]] = fmul double [[Q]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
