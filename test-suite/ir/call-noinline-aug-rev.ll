; A call to a noinline function that carries derivatives is differentiated
; recursively: the caller's augmented forward pass calls square.aug (with the
; tape), its reverse pass calls square.rev with the call's adjoint and takes
; the argument's gradient from the returned struct. The primal @square is
; left as it was.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define internal double @square(double %x) noinline {
  %r = fmul double %x, %x
  ret double %r
}

; sin(x)^2
define double @f(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  %r = call double @square(double %s)
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal double @square(
; CHECK-NEXT:    %r = fmul double %x, %x
; CHECK-NEXT:    ret double %r

; CHECK-LABEL: define internal double @f.aug(
; CHECK-SAME:    double [[X:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:         %s = tail call double @llvm.sin.f64(double [[X]])
; CHECK:         call double @square.aug(double %s, ptr [[TAPE]])
; CHECK-NOT:     call double @square(
; CHECK:         store double %s, ptr
; CHECK:         ret double

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:         [[S:%[0-9]+]] = load double, ptr
; CHECK:         [[G:%[0-9]+]] = tail call { double } @square.rev(double [[S]], double [[DRET]], ptr {{.*}}[[TAPE]])
; CHECK:         [[DS:%[0-9]+]] = extractvalue { double } [[G]], 0
; CHECK:         [[COS:%[0-9]+]] = tail call double @llvm.cos.f64(double [[X]])
; CHECK:         fmul double [[COS]], [[DS]]
; CHECK:         ret { double }

; CHECK-LABEL: define internal double @square.aug(
; CHECK:         fmul double
; CHECK:         ret double

; CHECK-LABEL: define internal { double } @square.rev(
; CHECK-SAME:    double [[A:%[0-9]+]], double [[DA:%[0-9]+]], ptr
; CHECK:         [[T:%[0-9]+]] = fmul double [[A]], [[DA]]
; CHECK:         fadd reassoc double [[T]], [[T]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
