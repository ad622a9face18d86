; Forward mode of sin: the tangent is cos(x) * dx, from the same partial
; (d sin / dx = cos x) that reverse mode uses. The request becomes a call of
; the tangent function, which returns {primal, tangent}.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @f(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

define double @test(double %x, double %dx) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %t
}

; CHECK-LABEL: define double @test(
; CHECK:         [[R:%.*]] = call { double, double } @f.fwd(double %x, double %dx)
; CHECK:         [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK:         ret double [[T]]

; CHECK-LABEL: define internal { double, double } @f.fwd(
; CHECK-SAME:    double [[X:%[0-9a-z]+]], double [[DX:%[0-9a-z]+]])
; CHECK:         call double @llvm.sin.f64(double [[X]])
; CHECK:         [[C:%.*]] = {{(tail )?}}call double @llvm.cos.f64(double [[X]])
; CHECK:         [[D:%.*]] = fmul double [[C]], [[DX]]
; CHECK:         insertvalue { double, double } {{.*}}, double [[D]], 1
