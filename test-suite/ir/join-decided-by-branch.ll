; A join's reverse needs to know which predecessor the forward pass came
; from. When the branch of the join's immediate dominator decides it and its
; condition can be recomputed in the reverse pass, nothing is recorded: the
; zero-trip guard of a loop (`n > 0`) is recomputed from the argument n.
; A join of three predecessors (a switch) still records a predecessor index.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; sum of x[i]^2 for i < n, as -O2 leaves it (rotated, guarded).
define double @sumsq(ptr %x, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %done

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %loop.exit

loop.exit:
  br label %done

done:
  %r = phi double [ 0.0, %entry ], [ %s.next, %loop.exit ]
  ret double %r
}

define void @test_sumsq(ptr %x, ptr %dx, i64 %n) {
  %m = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq, i32 %m, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @sumsq.aug(
; CHECK-NOT:     pred.index
; CHECK:         ret

; CHECK-LABEL: define internal void @sumsq.rev(
; CHECK-SAME:    i64 [[N:%[0-9]+]]
; CHECK:       done.rev:
; CHECK-NOT:     load i32
; CHECK:         [[GUARD:%[a-z.0-9]+]] = icmp sgt i64 [[N]], 0
; CHECK-NEXT:    br i1 [[GUARD]], label

; Three ways into the join: the index of the predecessor is recorded.
define double @pick(double %x, i32 %k) {
entry:
  switch i32 %k, label %c2 [ i32 0, label %c0
                             i32 1, label %c1 ]
c0:
  %a = fmul double %x, %x
  br label %join
c1:
  %b = fmul double %x, 3.0
  br label %join
c2:
  br label %join
join:
  %r = phi double [ %a, %c0 ], [ %b, %c1 ], [ %x, %c2 ]
  ret double %r
}

define double @test_pick(double %x, i32 %k) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, double %x, i32 %k)
  ret double %g
}

; CHECK-LABEL: define internal double @pick.aug(
; CHECK:       join:
; CHECK:         %pred.index = phi i32
; CHECK:         store i32 %pred.index, ptr
; CHECK-LABEL: define internal { double } @pick.rev(
; CHECK:       join.rev:
; CHECK:         load i32, ptr
; CHECK:         switch i32

@enzyme_dup = external global i32
