; lgamma: d/dx lgamma(x) = digamma(x), emitted as the engine's helper enzyme.digamma.double (reflection, recurrence up to 6, asymptotic series).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @lgamma(double)

define double @f(double %x) {
  %y = call double @lgamma(double %x)
  ret double %y
}

define double @test(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define double @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK:         call { double } @f.grad(double %x)
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[PSI:%[0-9]+]] = tail call double @enzyme.digamma.double(double [[X]])
; CHECK:         fmul double [[PSI]], [[DRET]]

; CHECK-LABEL: define internal double @enzyme.digamma.double(double
; CHECK:       reflect:
; CHECK:         call double @enzyme.digamma.double(
; CHECK:         call double @llvm.tan.f64(
; CHECK:       recurrence:
; CHECK:         fcmp olt double {{%.*}}, 6.000000e+00
; CHECK:       series:
; CHECK:         call double @llvm.log.f64(
; CHECK-LABEL: {{^}}define
