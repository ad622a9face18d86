; fmul with one operand enzyme_const: only the active operand gets an adjoint
; (the constant times the incoming adjoint), and the gradient struct has one
; field.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %c) {
  %r = fmul double %x, %c
  ret double %r
}

define double @test(double %x, double %c) {
  %m = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %m, double %c)
  ret double %g
}

; CHECK-LABEL: define double @test(
; CHECK:         call { double } @f.grad(double %x, double %c)

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[C:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     fmul double [[X]]
; CHECK:         fmul double [[C]], [[DRET]]
; CHECK-NOT:     fmul double [[X]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
