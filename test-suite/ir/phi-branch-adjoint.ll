; A phi after a branch: the augmented forward pass records which predecessor
; it came from (pred.index, pushed on the tape in the merge block); the
; reverse of the merge block pops it, branches to the reverse of that
; predecessor and hands the phi's adjoint to the incoming value of that edge.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

; c > 0 ? sin(x) : x * x
define double @f(double %x, i32 %c) {
entry:
  %cmp = icmp sgt i32 %c, 0
  br i1 %cmp, label %then, label %else

then:
  %s = call double @llvm.sin.f64(double %x)
  br label %merge

else:
  %q = fmul double %x, %x
  br label %merge

merge:
  %r = phi double [ %s, %then ], [ %q, %else ]
  ret double %r
}

define double @test(double %x, i32 %c) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:       merge:
; CHECK:         %pred.index = phi i32
; CHECK:         store i32 %pred.index, ptr
; CHECK:         ret double %r

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 {{%[0-9]+}}, double [[DRET:%[0-9]+]], ptr
; CHECK:       merge.rev:
; CHECK:         [[IDX:%[0-9]+]] = load i32, ptr
; CHECK:         {{icmp|switch}} {{.*}}[[IDX]]
; CHECK:       then.rev:
; CHECK:         [[COS:%[0-9]+]] = tail call double @llvm.cos.f64(double [[X]])
; CHECK:         [[G1:%[0-9]+]] = fmul double [[COS]], [[DRET]]
; CHECK:       else.rev:
; CHECK:         [[T:%[0-9]+]] = fmul double [[X]], [[DRET]]
; CHECK:         [[G2:%[0-9]+]] = fadd reassoc double [[T]], [[T]]
; CHECK:       return:
; CHECK:         phi double [ [[G2]], %else.rev ], [ [[G1]], %then.rev ]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
