; A request whose call has another function type than the declaration, as
; clang emits for a C declaration without a prototype
; (`double __enzyme_autodiff();`) or a call through a cast. It used to be
; ignored, so the call stayed and the link failed with "undefined symbol:
; __enzyme_autodiff"; now it is served like any other request.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(...)

define double @f(double %x) {
  %sq = fmul double %x, %x
  %cube = fmul double %sq, %x
  ret double %cube
}

define double @test(double %x) {
  %d = call double (ptr, double, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     @__enzyme_autodiff
; CHECK:         call {{.*}}@f.grad(double %x
; CHECK-LABEL: {{^}}define
