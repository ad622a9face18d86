; A recursive function gets one tangent function that calls itself: the
; cache holds it before its body is built.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_fwddiff(ptr, ...)

define double @pow_rec(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 1.0
rec:
  %m = sub i32 %n, 1
  %p = call double @pow_rec(double %x, i32 %m)
  %r = fmul double %p, %x
  ret double %r
}

define double @test(double %x) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @pow_rec, double %x, double 1.0, i32 5)
  ret double %t
}

; CHECK-LABEL: define internal { double, double } @pow_rec.fwd(
; CHECK:         call { double, double } @pow_rec.fwd(
; CHECK-NOT:     define internal {{.*}} @pow_rec.fwd.1
