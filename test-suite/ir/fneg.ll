; fneg: the operand's adjoint is the negated incoming adjoint.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fneg double %x
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[G:%[0-9]+]] = fsub double 0.000000e+00, [[DRET]]
; CHECK:         insertvalue { double } undef, double [[G]], 0
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
