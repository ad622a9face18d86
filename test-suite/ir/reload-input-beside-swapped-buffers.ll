; An input is reloaded in the reverse pass even when the function writes
; through a pointer that alternates between two blocks it allocated itself
; (double buffering: a phi of two mallocs). Alias analysis alone cannot tell
; that such a store never reaches the caller's memory; a block allocated
; during the call never is. w[i] is therefore not taped; u[i], which the
; function overwrites, is.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
@enzyme_const = external global i32

; Two sweeps of next[i] = 2 * cur[i] between two buffers, then
; sum_i w[i] * cur[i]^2.
define double @f(ptr %x, ptr %w, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %a = call ptr @malloc(i64 %bytes)
  %b = call ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %x, i64 %bytes, i1 false)
  br label %sweep

sweep:
  %k = phi i64 [ 0, %entry ], [ %k.next, %sweep.end ]
  %cur = phi ptr [ %a, %entry ], [ %nxt, %sweep.end ]
  %nxt = phi ptr [ %b, %entry ], [ %cur, %sweep.end ]
  br label %cell

cell:
  %i = phi i64 [ 0, %sweep ], [ %i.next, %cell ]
  %pc = getelementptr inbounds double, ptr %cur, i64 %i
  %v = load double, ptr %pc
  %v2 = fmul double %v, 2.0
  %pn = getelementptr inbounds double, ptr %nxt, i64 %i
  store double %v2, ptr %pn
  %i.next = add nuw nsw i64 %i, 1
  %cdone = icmp eq i64 %i.next, %n
  br i1 %cdone, label %sweep.end, label %cell

sweep.end:
  %k.next = add nuw nsw i64 %k, 1
  %sdone = icmp eq i64 %k.next, 2
  br i1 %sdone, label %sum, label %sweep

sum:
  %j = phi i64 [ 0, %sweep.end ], [ %j.next, %sum ]
  %s = phi double [ 0.0, %sweep.end ], [ %s.next, %sum ]
  %pw = getelementptr inbounds double, ptr %w, i64 %j
  %wj = load double, ptr %pw
  %pu = getelementptr inbounds double, ptr %nxt, i64 %j
  %uj = load double, ptr %pu
  %t = fmul double %wj, %uj
  %t2 = fmul double %t, %uj
  %s.next = fadd double %s, %t2
  %j.next = add nuw nsw i64 %j, 1
  %jdone = icmp eq i64 %j.next, %n
  br i1 %jdone, label %exit, label %sum

exit:
  call void @free(ptr %a)
  call void @free(ptr %b)
  ret double %s.next
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @test(ptr %x, ptr %dx, ptr %w, i64 %n) {
  %c = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i32 %c, ptr %w, i32 %c, i64 %n)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:       sum:
; CHECK:         %wj = load double
; CHECK:         %uj = load double
; CHECK-NOT:     store double %wj
; CHECK:         store double %uj, ptr
; CHECK-NOT:     store double %wj
; CHECK:         ret double
; CHECK-LABEL: define internal void @f.rev(
; CHECK:       sum.rev:
; CHECK:         %wj.re = load double, ptr
; CHECK-LABEL: {{^}}define
