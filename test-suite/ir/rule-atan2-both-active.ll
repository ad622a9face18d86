; atan2(y, x) with both arguments active: the first argument gets x/(x²+y²), the second -y/(x²+y²) (the engine's X is argument 0).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @atan2(double, double)

define double @f(double %x, double %y) {
  %r = call double @atan2(double %x, double %y)
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define { double, double } @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double, double } @f.grad(double %x, double %y)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[A0:%[0-9]+]], double [[A1:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-DAG:     [[SQ0:%[0-9]+]] = fmul double [[A0]], [[A0]]
; CHECK-DAG:     [[SQ1:%[0-9]+]] = fmul double [[A1]], [[A1]]
; CHECK:         [[DEN:%[0-9]+]] = fadd double [[SQ0]], [[SQ1]]
; CHECK:         [[P0:%[0-9]+]] = fdiv double [[A1]], [[DEN]]
; CHECK:         [[G0:%[0-9]+]] = fmul double [[P0]], [[DRET]]
; CHECK:         [[NEG:%[0-9]+]] = fneg double [[A0]]
; CHECK:         [[P1:%[0-9]+]] = fdiv double [[NEG]], [[DEN]]
; CHECK:         [[G1:%[0-9]+]] = fmul double [[P1]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
