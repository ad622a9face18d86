; A module may already hold a helper the engine defines by name, left by an
; earlier run (the compile-time run before link time, or device code linked
; into the host module under CUDA emulation) and changed by the optimiser
; since: here enzyme.tape.grow became fastcc. The new gradient must not call
; it with the C convention (undefined behaviour: -O2 then deleted the tape's
; growth and the program wrote through a null tape); the stale helper keeps
; its callers under another name and a fresh one is made.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

%enzyme.tape = type { ptr, i64, i64 }

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @realloc(ptr, i64)

define internal fastcc void @enzyme.tape.grow(ptr %tape, i64 %needed) {
  %cap = getelementptr inbounds %enzyme.tape, ptr %tape, i32 0, i32 2
  store i64 %needed, ptr %cap
  %data = getelementptr inbounds %enzyme.tape, ptr %tape, i32 0, i32 0
  %old = load ptr, ptr %data
  %new = call ptr @realloc(ptr %old, i64 %needed)
  store ptr %new, ptr %data
  ret void
}

define void @earlier(ptr %tape) {
  call fastcc void @enzyme.tape.grow(ptr %tape, i64 8)
  ret void
}

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

; CHECK-LABEL: define internal fastcc void @enzyme.tape.grow.stale(
; CHECK-LABEL: define void @earlier(
; CHECK-NEXT:    call fastcc void @enzyme.tape.grow.stale(ptr %tape, i64 8)
; CHECK-LABEL: define internal double @f.aug(
; CHECK:         call void @enzyme.tape.grow(ptr
; CHECK-LABEL: define internal void @enzyme.tape.grow(
; CHECK:         call ptr @realloc(
