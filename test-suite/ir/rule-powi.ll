; llvm.powi(x, n) with an integer exponent: d/dx = n * pow(x, n - 1) with n
; converted by sitofp; the exponent gets no gradient.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.powi.f64.i32(double, i32)

define double @f(double %x, i32 %n) {
  %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
  ret double %r
}

define double @test(double %x, i32 %n) {
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, i32 %n)
  ret double %r
}

; CHECK-LABEL: define double @test(
; CHECK:         call { double } @f.grad(double %x, i32 %n)

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[NF:%[0-9]+]] = sitofp i32 [[N]] to double
; CHECK:         [[NM1:%[0-9]+]] = fadd double [[NF]], -1.000000e+00
; CHECK:         [[POW:%[0-9]+]] = tail call double @llvm.pow.f64(double [[X]], double [[NM1]])
; CHECK:         [[P:%[0-9]+]] = fmul double [[POW]], [[NF]]
; CHECK:         fmul double [[P]], [[DRET]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
