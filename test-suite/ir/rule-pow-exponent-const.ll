; pow(x, c) with the exponent enzyme_const: only c * pow(x, c - 1) is built; no log, no tape.
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
  %g = call { double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, double %y)
  ret { double } %g
}

; CHECK-LABEL: define { double } @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK-NOT:     load i32, ptr @enzyme_const
; CHECK:         call { double } @f.grad(double %x, double %y)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     enzyme.tape.grow
; CHECK:         ret double

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     @llvm.log.f64
; CHECK:         [[YM1:%[0-9]+]] = fadd double [[Y]], -1.000000e+00
; CHECK:         [[POW:%[0-9]+]] = tail call double @llvm.pow.f64(double [[X]], double [[YM1]])
; CHECK:         [[PX:%[0-9]+]] = fmul double [[POW]], [[Y]]
; CHECK:         fmul double [[PX]], [[DRET]]
; CHECK-NOT:     @llvm.log.f64
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
