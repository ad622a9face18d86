; frem, a - b * trunc(a / b) (fmod without errno, and what llvm-stress
; writes): the adjoint goes to a unchanged and to b times -trunc(a / b).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %a, double %b) {
  %r = frem double %a, %b
  ret double %r
}

define { double, double } @test(double %a, double %b) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %a, double %b)
  ret { double, double } %g
}

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[A:%[0-9]+]], double [[B:%[0-9]+]], double [[D:%[0-9]+]], ptr
; CHECK:         [[Q:%[0-9]+]] = fdiv double [[A]], [[B]]
; CHECK:         [[T:%[0-9]+]] = {{.*}}call double @llvm.trunc.f64(double [[Q]])
; CHECK:         [[M:%[0-9]+]] = fmul double [[T]], [[D]]
; CHECK:         fsub double 0.000000e+00, [[M]]
