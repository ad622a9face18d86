; fmax(x, y): the adjoint goes to x when x > y or y is NaN (fmax then returns
; x), otherwise to y (partials (x>y or y NaN) and 1 minus that).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @fmax(double, double)

define double @f(double %x, double %y) {
  %r = call double @fmax(double %x, double %y)
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
; CHECK:         [[GT:%[0-9]+]] = fcmp ogt double [[X]], [[Y]]
; CHECK:         [[NAN:%[0-9]+]] = fcmp uno double [[Y]], 0.000000e+00
; CHECK:         [[WINS:%[0-9]+]] = or i1 [[GT]], [[NAN]]
; CHECK:         [[PX:%[0-9]+]] = uitofp i1 [[WINS]] to double
; CHECK:         fmul double [[PX]], [[DRET]]
; CHECK:         [[PY:%[0-9]+]] = fsub double 1.000000e+00, [[PX]]
; CHECK:         fmul double [[PY]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
