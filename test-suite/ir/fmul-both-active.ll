; fmul with both operands active: each operand's adjoint is the other operand
; times the incoming adjoint. Both operands are arguments, so nothing goes on
; the tape.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     store
; CHECK:         ret double

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     load
; CHECK-DAG:     [[GX:%[0-9]+]] = fmul double [[Y]], [[DRET]]
; CHECK-DAG:     [[GY:%[0-9]+]] = fmul double [[X]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
