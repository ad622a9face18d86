; A value computed once before a loop (exp(x), not cheap to recompute) that
; the loop body's reverse needs: it is pushed once, at the function's exit,
; and popped once before the reverse loop, never per iteration. The
; loop-carried %s is pushed per iteration.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @exp(double)

; x * exp(x)^n
define double @f(double %x, i64 %n) {
entry:
  %e = call double @exp(double %x)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ %x, %entry ], [ %s.next, %loop ]
  %s.next = fmul double %s, %e
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %s.next
}

define double @test(double %x, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %e = tail call double @exp(
; CHECK:       loop:
; CHECK-NOT:     store double %e
; CHECK:         store double %s, ptr
; CHECK-NOT:     store double %e
; CHECK:         br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK:         store double %e, ptr
; CHECK-NOT:     store double %e
; CHECK:         ret double

; exp(x) is popped in the reverse of the exit block, before the loop, and
; used by every iteration.
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK:       exit.rev:
; CHECK:         [[E:%[0-9]+]] = load double, ptr
; CHECK:       loop.rev:
; CHECK:         fmul double [[E]], {{%.*}}
; CHECK:         br i1 {{%.*}}, label %return, label %loop.rev
; CHECK:       return:
; CHECK:         fmul double [[E]], {{%.*}}
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
