; cos: d/dx cos(x) = -sin(x); the reverse pass multiplies sin(x) by the adjoint and negates.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @cos(double)

define double @f(double %x) {
  %y = call double @cos(double %x)
  ret double %y
}

define double @test(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double } @f.grad(double %x)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[SIN:%[0-9]+]] = tail call double @llvm.sin.f64(double [[X]])
; CHECK:         [[P:%[0-9]+]] = fmul double [[SIN]], [[DRET]]
; CHECK:         fsub double 0.000000e+00, [[P]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
