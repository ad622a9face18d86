; Two requests for the same function with the same activities share one
; gradient function (and one augmented/reverse pair).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @test(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %h = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %y)
  %s = fadd double %g, %h
  ret double %s
}

; CHECK-LABEL: define double @test(
; CHECK:         call { double } @f.grad(double %x)
; CHECK:         call { double } @f.grad(double %y)
; CHECK-COUNT-1: define internal double @f.aug(
; CHECK-NOT:     define internal double @f.aug
; CHECK-NOT:     define internal {{.*}} @f.grad.
