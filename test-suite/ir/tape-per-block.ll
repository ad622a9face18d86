; Values are pushed in the batch of the block whose reverse needs them: the
; `then` block pushes exp's result (8 bytes), the `else` block exp's and
; tanh's results (16 bytes), the merge block nothing (the argument %c tells
; its reverse which way the forward pass went). The reverse of each block
; pops exactly its own batch.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @exp(double)
declare double @tanh(double)

; c ? exp(x) : tanh(exp(x))
define double @f(double %x, i1 %c) {
entry:
  br i1 %c, label %then, label %else

then:
  %a = call double @exp(double %x)
  br label %merge

else:
  %b = call double @exp(double %x)
  %t = call double @tanh(double %b)
  br label %merge

merge:
  %r = phi double [ %a, %then ], [ %t, %else ]
  ret double %r
}

define double @test(double %x, i1 %c) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i1 %c)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:       then:
; CHECK:         add {{.*}}i64 {{%.*}}, 8
; CHECK:         store double {{%.*}}, ptr
; CHECK:       else:
; CHECK:         %t = tail call double @tanh(
; CHECK:         add {{.*}}i64 {{%.*}}, 16
; CHECK:         store double {{%.*}}, ptr
; CHECK:         store double %t, ptr
; CHECK:       merge:
; CHECK-NEXT:    %r = phi double
; CHECK-NEXT:    ret double %r

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    i1 [[C:%[0-9]+]]
; CHECK:       merge.rev:
; CHECK:         [[SIZE:%tape.size[0-9]*]] = load i64, ptr
; CHECK-NEXT:    br i1 [[C]], label %then.rev, label %else.rev
; CHECK:       then.rev:
; CHECK:         add nsw i64 [[SIZE]], -8
; CHECK:         load double, ptr
; CHECK-NOT:     load double, ptr
; CHECK:       else.rev:
; CHECK:         add nsw i64 [[SIZE]], -16
; CHECK:         load double, ptr
; CHECK:         load double, ptr
; CHECK:       return:
; CHECK-LABEL: {{^}}define
