; A block the function allocates, fills, and afterwards only reads stays
; allocated until the reverse pass: the augmented forward pass drops its
; free, the reverse pass reloads t[i] from it (nothing is pushed in the
; reading loop) and frees it where it reverses the malloc.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.exp.f64(double)

; t[i] = exp(x[i]) for i < n; s = sum_i t[i] * t[i]; free(t)
define double @f(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %t = call ptr @malloc(i64 %bytes)
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %px
  %e = call double @llvm.exp.f64(double %v)
  %pt = getelementptr inbounds double, ptr %t, i64 %i
  store double %e, ptr %pt
  %i.next = add nuw nsw i64 %i, 1
  %filled = icmp eq i64 %i.next, %n
  br i1 %filled, label %read, label %fill

read:
  %j = phi i64 [ 0, %fill ], [ %j.next, %read ]
  %s = phi double [ 0.0, %fill ], [ %s.next, %read ]
  %pj = getelementptr inbounds double, ptr %t, i64 %j
  %w = load double, ptr %pj
  %sq = fmul double %w, %w
  %s.next = fadd double %s, %sq
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %read

exit:
  call void @free(ptr %t)
  ret double %s.next
}

define double @test(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %t = tail call ptr @malloc(i64 %bytes)
; CHECK-NOT:     call void @free(ptr %t)
; CHECK:         ret double

; The reading loop reloads w = t[j] from the block (the primal %t comes from
; the tape once, next to its shadow); the reverse of the malloc frees it.
; CHECK-LABEL: define internal void @f.rev(
; CHECK:       read.rev:
; CHECK-NOT:     tape
; CHECK:         %pj.re = getelementptr inbounds double, ptr [[T:%[0-9]+]], i64 %j.slot.0
; CHECK-NEXT:    %w.re = load double, ptr %pj.re
; CHECK:       return:
; CHECK:         call void @free(ptr [[T]])
