; A recursive function: its augmented forward function calls itself, and so
; does its reverse function (with the recursion's argument recomputed), both
; sharing the caller's tape. pw(x, n) = x^n, n = 0 returning 1.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @pw(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec

base:
  ret double 1.0

rec:
  %m = sub i32 %n, 1
  %p = call double @pw(double %x, i32 %m)
  %r = fmul double %p, %x
  ret double %r
}

define double @test(double %x, i32 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @pw, double %x, i32 %n)
  ret double %g
}

; CHECK-LABEL: define double @test(
; CHECK:         call { double } @pw.grad(double %x, i32 %n)

; The recursive call's result is pushed for the reverse of the fmul.
; CHECK-LABEL: define internal double @pw.aug(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 {{%[0-9]+}}, ptr [[TAPE:%[0-9]+]])
; CHECK:       rec:
; CHECK:         [[P:%[0-9]+]] = tail call double @pw.aug(double [[X]], i32 %m, ptr [[TAPE]])
; CHECK:         store double [[P]], ptr

; CHECK-LABEL: define internal { double } @pw.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[N:%[0-9]+]], double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:       rec.rev:
; CHECK:         [[P:%[0-9]+]] = load double, ptr
; CHECK-DAG:     [[M:%.*]] = add i32 [[N]], -1
; CHECK-DAG:     [[DP:%[0-9]+]] = fmul double [[X]], [[DRET]]
; CHECK-DAG:     [[DX:%[0-9]+]] = fmul double [[P]], [[DRET]]
; CHECK:         [[G:%[0-9]+]] = tail call { double } @pw.rev(double [[X]], i32 [[M]], double [[DP]], ptr {{.*}}[[TAPE]])
; CHECK:         [[GX:%[0-9]+]] = extractvalue { double } [[G]], 0
; CHECK:         fadd reassoc double [[DX]], [[GX]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
