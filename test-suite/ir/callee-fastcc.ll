; A static callee that IPO made fastcc: its augmented and reverse functions
; are called with the convention they are defined with. (The augmented
; function used to inherit fastcc from the cloned body while its calls used
; the C convention, so -O2 deleted every gradient that called it.)
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define internal fastcc double @helper(double %v) noinline {
  %s = call double @llvm.sin.f64(double %v)
  %r = fmul double %s, %v
  ret double %r
}

define double @f(double %x) {
  %a = call fastcc double @helper(double %x)
  %b = fmul double %a, %x
  ret double %b
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         call double @helper.aug(
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK:         call { double } @helper.rev(
; CHECK-LABEL: define internal double @helper.aug(
; CHECK-LABEL: define internal { double } @helper.rev(
