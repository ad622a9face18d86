; pow(c, y) with the base enzyme_const: only pow(c, y) * log(c) is built, from the result on the tape.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare { double } @__enzyme_autodiff(ptr, ...)
declare double @pow(double, double)

define double @f(double %x, double %y) {
  %r = call double @pow(double %x, double %y)
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
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[R:%[0-9]+]] = load double, ptr
; CHECK-NOT:     @llvm.pow.f64
; CHECK:         [[LOG:%[0-9]+]] = tail call double @llvm.log.f64(double [[X]])
; pow(0, y) is flat in y: the partial is 0 where the power is, not 0 * -inf.
; CHECK:         [[FLAT:%[0-9]+]] = fcmp oeq double [[R]], 0.000000e+00
; CHECK:         [[PROD:%[0-9]+]] = fmul double [[LOG]], [[R]]
; CHECK:         [[PY:%[0-9]+]] = select i1 [[FLAT]], double 0.000000e+00, double [[PROD]]
; CHECK:         fmul double [[PY]], [[DRET]]
; CHECK-NOT:     @llvm.pow.f64
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
