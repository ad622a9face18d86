; hypot(x, y): d/dx = x / hypot(x, y), d/dy = y / hypot(x, y), with the result from the tape.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @hypot(double, double)

define double @f(double %x, double %y) {
  %r = call double @hypot(double %x, double %y)
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

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %r = tail call double @hypot(
; CHECK:         store double %r, ptr

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[R:%[0-9]+]] = load double, ptr
; CHECK:         [[PX:%[0-9]+]] = fdiv double [[X]], [[R]]
; CHECK:         fmul double [[PX]], [[DRET]]
; CHECK:         [[PY:%[0-9]+]] = fdiv double [[Y]], [[R]]
; CHECK:         fmul double [[PY]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
