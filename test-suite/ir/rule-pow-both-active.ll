; pow(x, y) with both arguments active: d/dx = y * pow(x, y - 1), d/dy = pow(x, y) * log(x); the result for the second partial comes from the tape.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @pow(double, double)

define double @f(double %x, double %y) {
  %r = call double @pow(double %x, double %y)
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

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %r = tail call double @pow(
; CHECK:         store double %r, ptr

; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[R:%[0-9]+]] = load double, ptr
; CHECK:         [[YM1:%[0-9]+]] = fadd double [[Y]], -1.000000e+00
; CHECK:         [[POW:%[0-9]+]] = tail call double @llvm.pow.f64(double [[X]], double [[YM1]])
; CHECK:         [[PX:%[0-9]+]] = fmul double [[POW]], [[Y]]
; CHECK:         fmul double [[PX]], [[DRET]]
; CHECK:         [[LOG:%[0-9]+]] = tail call double @llvm.log.f64(double [[X]])
; pow(0, y) is flat in y: the partial is 0 where the power is, not 0 * -inf.
; CHECK:         [[FLAT:%[0-9]+]] = fcmp oeq double [[R]], 0.000000e+00
; CHECK:         [[PROD:%[0-9]+]] = fmul double [[LOG]], [[R]]
; CHECK:         [[PY:%[0-9]+]] = select i1 [[FLAT]], double 0.000000e+00, double [[PROD]]
; CHECK:         fmul double [[PY]], [[DRET]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
