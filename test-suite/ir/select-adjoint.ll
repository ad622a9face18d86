; select c, x, y: the adjoint goes to x where c holds and to y otherwise (two
; selects against zero). The condition is a cheap fcmp of arguments, so the
; reverse pass recomputes it instead of taking it from the tape.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %c = fcmp olt double %x, %y
  %r = select i1 %c, double %x, double %y
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     enzyme.tape.grow
; CHECK:         ret double

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     load
; CHECK:         [[C:%.*]] = fcmp olt double [[X]], [[Y]]
; CHECK:         [[D:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; CHECK:         [[GX:%[0-9]+]] = select i1 [[C]], double [[D]], double 0.000000e+00
; CHECK:         [[GY:%[0-9]+]] = select i1 [[C]], double 0.000000e+00, double [[D]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
