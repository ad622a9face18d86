; A value computed in an outer loop and used in an inner loop (here a[i],
; read before the function overwrites it) reaches the reverse pass once per
; execution of the inner loop: it is pushed when the inner loop exits, not in
; every inner iteration, and kept in a slot while the reverse pass runs the
; inner loop. The inner loop body pushes nothing.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; s = sum_i sum_j a[i] * b[j]; a[i] = 0 afterwards.
define double @f(ptr noalias %a, ptr noalias %b, i64 %n) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.inner, %outer.latch ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %ai = load double, ptr %pa
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi double [ %s, %outer ], [ %t.next, %inner ]
  %pb = getelementptr inbounds double, ptr %b, i64 %j
  %bj = load double, ptr %pb
  %m = fmul double %ai, %bj
  %t.next = fadd double %t, %m
  %j.next = add nuw nsw i64 %j, 1
  %jdone = icmp eq i64 %j.next, %n
  br i1 %jdone, label %outer.latch, label %inner

outer.latch:
  %s.inner = phi double [ %t.next, %inner ]
  store double 0.0, ptr %pa
  %i.next = add nuw nsw i64 %i, 1
  %idone = icmp eq i64 %i.next, %n
  br i1 %idone, label %exit, label %outer

exit:
  ret double %s.inner
}

define double @test(ptr %a, ptr %da, ptr %b, ptr %db, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, i64 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:       inner:
; CHECK-NOT:     store
; CHECK:         br i1 %jdone, label %outer.latch, label %inner
; CHECK:       outer.latch:
; CHECK:         store double 0.000000e+00, ptr %pa
; CHECK:         store double %ai, ptr
; CHECK:         ret double

; The reverse of the inner loop takes a[i] from the value popped when the
; reverse pass entered it, reloads b[j] (b is noalias and never written), and
; pops nothing itself.
; CHECK-LABEL: define internal void @f.rev(
; CHECK:       inner.rev:
; CHECK-NOT:     @tape
; CHECK-NOT:     load ptr
; CHECK:         %bj.re = load double, ptr %pb.re
; CHECK-NOT:     load ptr
; CHECK:         br i1 {{%.*}}, label %outer.rev, label %inner.rev
; CHECK:       outer.latch.rev:
; CHECK:         [[AI:%[0-9]+]] = load double, ptr
; CHECK:         fmul double [[AI]], %5
; CHECK:         br label %inner.rev
; CHECK-LABEL: {{^}}define
