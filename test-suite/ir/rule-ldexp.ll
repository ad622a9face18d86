; ldexp(x, n) = x * 2^n, from libm and as llvm.ldexp: d/dx = ldexp(1, n), the
; integer exponent gets no gradient (unmarked integers are enzyme_const).
; RUN: %opt_enzyme -passes=enzyme -S %s -o %t
; RUN: FileCheck %s --check-prefix=LIBM < %t
; RUN: FileCheck %s --check-prefix=INTRINSIC < %t

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @ldexp(double, i32)
declare double @llvm.ldexp.f64.i32(double, i32)

define double @f(double %x, i32 %n) {
  %r = call double @ldexp(double %x, i32 %n)
  ret double %r
}

define double @g(double %x, i32 %n) {
  %r = call double @llvm.ldexp.f64.i32(double %x, i32 %n)
  ret double %r
}

define double @test_libm(double %x, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  ret double %r
}

define double @test_intrinsic(double %x, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x, i32 %n)
  ret double %r
}

; LIBM-LABEL: define double @test_libm(
; LIBM:         call { double } @f.grad(double %x, i32 %n)

; INTRINSIC-LABEL: define double @test_intrinsic(
; INTRINSIC:         call { double } @g.grad(double %x, i32 %n)

; LIBM-LABEL: define internal { double } @f.rev(
; LIBM-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; LIBM:         [[S:%[0-9]+]] = tail call double @llvm.ldexp.f64.i32(double 1.000000e+00, i32 [[N]])
; LIBM:         fmul double [[S]], [[DRET]]
; LIBM:         ret { double }
; LIBM-LABEL: {{^}}define

; INTRINSIC-LABEL: define internal { double } @g.rev(
; INTRINSIC-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; INTRINSIC:         [[S:%[0-9]+]] = tail call double @llvm.ldexp.f64.i32(double 1.000000e+00, i32 [[N]])
; INTRINSIC:         fmul double [[S]], [[DRET]]
; INTRINSIC:         ret { double }
; INTRINSIC-LABEL: {{^}}define
