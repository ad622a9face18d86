; erf: d/dx erf(x) = 2/sqrt(pi) * exp(-x*x); 2/sqrt(pi) = 0x3FF20DD750429B6D.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @erf(double)

define double @f(double %x) {
  %y = call double @erf(double %x)
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
; CHECK:         [[NX:%[0-9]+]] = fneg double [[X]]
; CHECK:         [[SQ:%[0-9]+]] = fmul double [[NX]], [[X]]
; CHECK:         [[E:%[0-9]+]] = tail call double @llvm.exp.f64(double [[SQ]])
; CHECK:         [[P:%[0-9]+]] = fmul double [[E]], 0x3FF20DD750429B6D
; CHECK:         fmul double [[P]], [[DRET]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
