; C++ code: the request is an invoke (inside a try scope) and the function
; invokes a differentiable callee. The request becomes a plain call to the
; gradient function followed by a branch to the normal destination, and the
; callee's invoke is differentiated like a call (exceptions are not).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @__gxx_personality_v0(...)

define internal double @sq(double %x) noinline {
  %r = fmul double %x, %x
  ret double %r
}

define double @f(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double @sq(double %x) to label %ok unwind label %lp

ok:
  ret double %r

lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define double @test(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %g = invoke double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x) to label %ok unwind label %lp

ok:
  ret double %g

lp:
  %l = landingpad { ptr, i32 } cleanup
  ret double 0.0
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     invoke
; CHECK:         [[G:%[0-9]+]] = call { double } @f.grad(double %x)
; CHECK-NEXT:    [[D:%[0-9]+]] = extractvalue { double } [[G]], 0
; CHECK-NEXT:    br label %ok
; CHECK:       ok:
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @f.aug(
; CHECK-NOT:     invoke
; CHECK:         call double @sq.aug(

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         call { double } @sq.rev(double [[X]], double [[DRET]], ptr
; CHECK-LABEL: {{^}}define
