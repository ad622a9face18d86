; log2: d/dx log2(x) = 1 / (ln(2) * x); ln 2 = 0x3FE62E42FEFA39EF.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @log2(double)

define double @f(double %x) {
  %y = call double @log2(double %x)
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
; CHECK:         [[LX:%[0-9]+]] = fmul double [[X]], 0x3FE62E42FEFA39EF
; CHECK:         [[P:%[0-9]+]] = fdiv double 1.000000e+00, [[LX]]
; CHECK:         fmul double [[P]], [[DRET]]
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
