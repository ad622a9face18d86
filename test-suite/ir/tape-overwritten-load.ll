; A value loaded from memory that the function overwrites afterwards must
; reach the reverse pass through the tape: reloading it there would read the
; new value. Here f reads *p, then stores to *p.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  store double %sq, ptr %p
  ret double %sq
}

define double @test(ptr %p, ptr %dp) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %v = load double, ptr
; CHECK:         store double %v, ptr
; CHECK:         ret double
; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr [[P:%[0-9]+]], ptr [[DP:%[0-9]+]], double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]]
; CHECK-NOT:     load double, ptr [[P]]
; CHECK:         [[V:%[0-9]+]] = load double, ptr [[SLOT:%[0-9]+]]
; CHECK-NOT:     load double, ptr [[P]]
; CHECK:         fmul double [[V]]
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
