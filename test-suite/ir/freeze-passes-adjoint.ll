; freeze passes the adjoint through unchanged.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %a = freeze double %x
  %r = fmul double %a, 5.0
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[G:%[0-9]+]] = fmul double [[DRET]], 5.000000e+00
; CHECK:         [[R:%[0-9]+]] = fadd double [[G]], 0.000000e+00
; CHECK:         insertvalue { double } undef, double [[R]], 0
; CHECK-LABEL: {{^}}define
