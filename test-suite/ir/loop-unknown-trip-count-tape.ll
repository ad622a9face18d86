; A loop whose trip count is only known at run time (x^n by repeated
; multiplication): every iteration of the augmented forward pass pushes the
; loop-carried value. The loop reserves room for its n pushes on entry
; (growing the tape through enzyme.tape.grow, realloc, when it is full), so
; the pushes inside need no capacity check. The reverse pass starts the
; counter i from its last value, n - 1 (scalar evolution knows it, so it is
; not pushed), pops one value per iteration and steps i back until it is at
; its start value again.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 1.0, %entry ], [ %s.next, %loop ]
  %s.next = fmul double %s, %x
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

; The loop body of the augmented forward pass grows the tape when needed and
; pushes %s (8 bytes a record); the exit pushes nothing.
; CHECK-LABEL: define internal double @f.aug(
; CHECK:       entry:
; CHECK:         [[BYTES:%[0-9]+]] = shl i64 %1, 3
; CHECK:         %tape.reserved = add i64 {{%.*}}, [[BYTES]]
; CHECK:         call void @enzyme.tape.grow(ptr {{.*}}, i64 %tape.reserved)
; CHECK:       loop:
; CHECK-NOT:     call
; CHECK-NOT:     tape.capacity
; CHECK:         store double %s, ptr
; CHECK:         br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK-NEXT:    store i64 %tape.newsize, ptr
; CHECK-NEXT:    ret double
; The reverse loop pops an 8-byte record per iteration.
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i64 [[N:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         %.promoted = load i64, ptr
; CHECK-NEXT:    [[END:%i.slot[0-9.]*]] = add i64 [[N]], -1
; The tape's size stays in a register while the loop pops (its header
; accesses are known not to alias the data or the adjoints).
; CHECK:       loop.rev.repeated:
; CHECK:         [[SIZE:%tape.newsize[0-9]*]] = phi i64 [ %tape.newsize, %loop.rev.repeated ]
; CHECK:         [[I:%i.slot[0-9.]*]] = phi i64 [ [[PREV:%i.slot[0-9.]*]], %loop.rev.repeated ], [ [[END]], %{{.*}} ]
; CHECK:         [[PREV]] = add i64 [[I]], -1
; CHECK:         %tape.newsize = add nsw i64 [[SIZE]], -8
; CHECK:         [[S:%[0-9]+]] = load double, ptr
; CHECK:         fmul double {{%.*}}, [[S]]
; CHECK:         [[FIRST:%[0-9]+]] = icmp eq i64 [[PREV]], 0
; CHECK:         br i1 [[FIRST]], label %return{{(.loopexit)?}}, label %loop.rev.repeated
; The cold path reallocates the tape's buffer.
; CHECK-LABEL: define internal void @enzyme.tape.grow(
; CHECK:         call ptr @realloc(
; CHECK-LABEL: {{^}}define
