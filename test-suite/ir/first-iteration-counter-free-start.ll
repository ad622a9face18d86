; The reverse of a loop tells its first iteration apart by comparing a
; counter with its start. The inner loop here has two counters: k starts at
; %base (a value of the outer loop that is no counter, which the reverse pass
; would have to take from the tape) and j starts at the outer counter i
; (kept in a slot). The engine compares j, so %base is never pushed.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; for (i = 0; i < n; ++i) { for (j = i, k = base; j < n; ++j, ++k) s += x[k] * x[k]; base = k*2 }
define double @f(ptr %x, i64 %n) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %base = phi i64 [ 0, %entry ], [ %base.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner

inner:
  %k = phi i64 [ %base, %outer ], [ %k.next, %inner ]
  %j = phi i64 [ %i, %outer ], [ %j.next, %inner ]
  %s.i = phi double [ %s, %outer ], [ %s.inner, %inner ]
  %km = urem i64 %k, 7
  %p = getelementptr inbounds double, ptr %x, i64 %km
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.inner = fadd double %s.i, %sq
  %k.next = add nuw nsw i64 %k, 1
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp ult i64 %j.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %base.next = shl i64 %k.next, 1
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp ult i64 %i.next, %n
  br i1 %again, label %outer, label %exit

exit:
  ret double %s.inner
}

define void @test(ptr %x, ptr %dx, i64 %n) {
  %m = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     store i64 %base
; CHECK:         ret double
; CHECK-LABEL: define internal void @f.rev(
