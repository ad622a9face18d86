; fadd: both operands receive the incoming adjoint unchanged.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fadd double %x, %y
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define { double, double } @test(
; CHECK:         call { double, double } @f.grad(double %x, double %y)

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     fmul
; CHECK:         [[G:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; CHECK:         [[S:%[0-9]+]] = insertvalue { double, double } undef, double [[G]], 0
; CHECK:         insertvalue { double, double } [[S]], double [[G]], 1
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
