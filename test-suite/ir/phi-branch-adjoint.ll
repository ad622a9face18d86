; A phi after a branch: the reverse of the merge block branches to the
; reverse of the predecessor the forward pass came from, which the branch
; condition decides (recomputed from the argument %c, so nothing is taped),
; and hands the phi's adjoint to the incoming value of that edge.
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
; CHECK-NOT:     pred.index
; CHECK:       merge:
; CHECK-NEXT:    %r = phi double
; CHECK-NEXT:    ret double %r

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i32 [[C:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:       merge.rev:
; CHECK:         [[CMP:%[0-9a-z.]+]] = icmp sgt i32 [[C]], 0
; CHECK:         br i1 [[CMP]], label %then.rev, label %else.rev
; CHECK:       then.rev:
; CHECK:         [[COS:%[0-9]+]] = tail call double @llvm.cos.f64(double [[X]])
; CHECK:         [[G1:%[0-9]+]] = fmul double [[COS]], [[DRET]]
; CHECK:       else.rev:
; CHECK:         [[T:%[0-9]+]] = fmul double [[X]], [[DRET]]
; CHECK:         [[G2:%[0-9]+]] = fadd reassoc double [[T]], [[T]]
; CHECK:       return:
; CHECK:         phi double [ [[G1]], %then.rev ], [ [[G2]], %else.rev ]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
