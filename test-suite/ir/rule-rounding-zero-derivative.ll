; floor, ceil, round, roundeven, trunc, rint and nearbyint (libm calls and
; the matching intrinsics) are piecewise constant: each partial is 0, so the
; reverse pass only multiplies the adjoint by zero and never calls them.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @floor(double)
declare double @ceil(double)
declare double @round(double)
declare double @roundeven(double)
declare double @trunc(double)
declare double @rint(double)
declare double @nearbyint(double)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.roundeven.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.rint.f64(double)
declare double @llvm.nearbyint.f64(double)

define double @f(double %x) {
  %a = call double @floor(double %x)
  %b = call double @ceil(double %x)
  %c = call double @round(double %x)
  %d = call double @roundeven(double %x)
  %e = call double @trunc(double %x)
  %f = call double @rint(double %x)
  %g = call double @nearbyint(double %x)
  %i0 = call double @llvm.floor.f64(double %x)
  %i1 = call double @llvm.ceil.f64(double %x)
  %i2 = call double @llvm.round.f64(double %x)
  %i3 = call double @llvm.roundeven.f64(double %x)
  %i4 = call double @llvm.trunc.f64(double %x)
  %i5 = call double @llvm.rint.f64(double %x)
  %i6 = call double @llvm.nearbyint.f64(double %x)
  %s1 = fadd double %a, %b
  %s2 = fadd double %s1, %c
  %s3 = fadd double %s2, %d
  %s4 = fadd double %s3, %e
  %s5 = fadd double %s4, %f
  %s6 = fadd double %s5, %g
  %t1 = fadd double %s6, %i0
  %t2 = fadd double %t1, %i1
  %t3 = fadd double %t2, %i2
  %t4 = fadd double %t3, %i3
  %t5 = fadd double %t4, %i4
  %t6 = fadd double %t5, %i5
  %t7 = fadd double %t6, %i6
  ret double %t7
}

define double @test(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double } @f.grad(double %x)
; The reverse function only scales the adjoint by the zero partials.
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK-NOT:     call
; CHECK:         fmul double [[DRET]], 0.000000e+00
; CHECK-NOT:     call
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
