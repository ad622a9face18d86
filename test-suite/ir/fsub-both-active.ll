; fsub: the first operand receives the adjoint, the second its negation.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fsub double %x, %y
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[GX:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; CHECK:         [[S:%[0-9]+]] = insertvalue { double, double } undef, double [[GX]], 0
; CHECK:         [[GY:%[0-9]+]] = fsub double 0.000000e+00, [[DRET]]
; CHECK:         insertvalue { double, double } [[S]], double [[GY]], 1
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
