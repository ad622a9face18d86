; The tape's alias scopes are named (uniqued), not distinct: the inliner
; clones distinct scopes at every inlined call, so the gradient function's
; own tape accesses and the inlined pair's would stop matching, and LLVM
; would lose that the tape never aliases user memory (GMM's reverse loops
; regained their runtime overlap checks when the scopes were distinct).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)

define double @sum_sin(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sv = call double @sin(double %v)
  %m = fmul double %sv, %v
  %s.next = fadd double %s, %m
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sum_sin, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK: define internal void @sum_sin.grad(
; CHECK: !alias.scope [[LIST:![0-9]+]]
; CHECK-DAG: [[LIST]] = !{[[SCOPE:![0-9]+]]}
; CHECK-DAG: [[SCOPE]] = !{!"enzyme.tape.{{header|data}}", [[DOMAIN:![0-9]+]]}
; CHECK-DAG: [[DOMAIN]] = !{!"enzyme.tape"}
