; sitofp/uitofp of integer arguments are inactive: the integers get no
; gradient (unmarked integers are enzyme_const), the converted values are
; recomputed in the reverse pass and scale x's adjoint.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i32 %n, i64 %m) {
  %a = sitofp i32 %n to double
  %b = uitofp i64 %m to double
  %p = fmul double %x, %a
  %q = fmul double %p, %b
  ret double %q
}

define double @test(double %x, i32 %n, i64 %m) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n, i64 %m)
  ret double %g
}

; CHECK-LABEL: define double @test(
; CHECK:         [[G:%[0-9]+]] = call { double } @f.grad(double %x, i32 %n, i64 %m)
; CHECK:         extractvalue { double } [[G]], 0

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], i64 [[M:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-DAG:     [[A:%.*]] = sitofp i32 [[N]] to double
; CHECK-DAG:     [[B:%.*]] = uitofp i64 [[M]] to double
; CHECK:         [[T:%[0-9]+]] = fmul double [[B]], [[DRET]]
; CHECK:         fmul double [[T]], [[A]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
