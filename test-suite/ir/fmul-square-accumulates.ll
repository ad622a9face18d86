; x * x: both uses contribute x * adjoint to the same adjoint, which is
; accumulated (fadd of the two contributions).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[P:%[0-9]+]] = fmul double [[X]], [[DRET]]
; CHECK:         fadd reassoc double [[P]], [[P]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
