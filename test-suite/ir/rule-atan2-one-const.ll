; atan2(y, x) with the first argument enzyme_const: only the second argument's partial, -y/(x²+y²), is built and the gradient struct has one field.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare { double } @__enzyme_autodiff(ptr, ...)
declare double @atan2(double, double)

define double @f(double %x, double %y) {
  %r = call double @atan2(double %x, double %y)
  ret double %r
}

define { double } @test(double %x, double %y) {
  %c = load i32, ptr @enzyme_const
  %g = call { double } (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %c, double %x, double %y)
  ret { double } %g
}

; CHECK-LABEL: define { double } @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK-NOT:     load i32, ptr @enzyme_const
; CHECK:         call { double } @f.grad(double %x, double %y)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[A0:%[0-9]+]], double [[A1:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-DAG:     [[NEG:%[0-9]+]] = fneg double [[A0]]
; CHECK-DAG:     [[SQ0:%[0-9]+]] = fmul double [[A0]], [[A0]]
; CHECK-DAG:     [[SQ1:%[0-9]+]] = fmul double [[A1]], [[A1]]
; CHECK:         [[DEN:%[0-9]+]] = fadd double [[SQ0]], [[SQ1]]
; CHECK-NOT:     fdiv double [[A1]], [[DEN]]
; CHECK:         [[P1:%[0-9]+]] = fdiv double [[NEG]], [[DEN]]
; CHECK:         fmul double [[P1]], [[DRET]]
; CHECK-NOT:     fdiv double [[A1]], [[DEN]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
