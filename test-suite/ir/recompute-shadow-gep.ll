; The shadow of &x[i] is a cheap GEP: the reverse pass recomputes it from the
; shadow argument and the popped index i instead of caching a pointer on the
; tape. Each iteration's reverse accumulates into dx[i].
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

; No pointer goes on the tape, only the index and the loaded value.
; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     store ptr
; CHECK:       loop:
; CHECK-NOT:     store ptr
; CHECK:         store i64 %i, ptr
; CHECK-NOT:     store ptr
; CHECK:         store double %v, ptr
; CHECK-NOT:     store ptr
; CHECK:         ret double

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, i64 {{%[0-9]+}}, ptr [[DX:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:       loop.rev:
; CHECK:         [[I:%[0-9]+]] = load i64, ptr
; CHECK:         [[V:%[0-9]+]] = load double, ptr
; CHECK:         [[DP:%.*]] = getelementptr inbounds double, ptr [[DX]], i64 [[I]]
; CHECK:         [[T:%[0-9]+]] = fmul double [[V]], [[DRET]]
; CHECK:         [[DV:%[0-9]+]] = fadd double [[T]], [[T]]
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[DP]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[DV]]
; CHECK:         store double [[NEW]], ptr [[DP]]
; CHECK:         br i1 {{%.*}}, label %return, label %loop.rev
; CHECK-LABEL: {{^}}define
