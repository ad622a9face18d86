; The shadow of &x[i] is a cheap GEP: the reverse pass recomputes it from the
; shadow argument and the index i instead of caching a pointer on the tape. Each iteration's reverse accumulates into dx[i].
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; sum of x[i]^2 for i < n
define double @f(ptr %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %s.next
}

define double @test(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret double %g
}

; Nothing goes on the tape: x is never written, so the reverse pass reloads
; x[i]; i is a counter whose last value scalar evolution knows (n - 1), so
; the reverse loop starts from it, steps i back (i - 1) and ends when i is
; back at its start value 0.

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     store
; CHECK:         ret double
; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr [[X:%[0-9]+]], i64 [[N:%[0-9]+]], ptr [[DX:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     load i64
; CHECK:       loop.rev:
; CHECK:         [[IN:%.*]] = phi i64 [ [[N]], %exit.rev ], [ [[I:%[a-z0-9.]+]], %loop.rev ]
; CHECK:         [[I]] = add i64 [[IN]], -1
; CHECK-DAG:     [[DP:%.*]] = getelementptr inbounds double, ptr [[DX]], i64 [[I]]
; CHECK-DAG:     [[P:%.*]] = getelementptr inbounds double, ptr [[X]], i64 [[I]]
; CHECK:         [[V:%.*]] = load double, ptr [[P]]
; CHECK:         [[T:%[0-9]+]] = fmul double [[V]], [[DRET]]
; CHECK:         [[DV:%[0-9]+]] = fadd reassoc double [[T]], [[T]]
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[DP]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[DV]]
; CHECK:         store double [[NEW]], ptr [[DP]]
; CHECK:         [[FIRST:%[0-9]+]] = icmp eq i64 [[I]], 0
; CHECK:         br i1 [[FIRST]], label %return, label %loop.rev
; CHECK-LABEL: {{^}}define
