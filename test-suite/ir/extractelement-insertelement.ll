; Adjoints through vector lanes: extractelement sends the lane's adjoint into
; that lane of the vector's adjoint, insertelement takes it back out.
; f(x, y) = (<x, y> * <x, y>)[0] + [1] = x^2 + y^2.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %v0 = insertelement <2 x double> poison, double %x, i32 0
  %v = insertelement <2 x double> %v0, double %y, i32 1
  %w = fmul <2 x double> %v, %v
  %a = extractelement <2 x double> %w, i32 0
  %b = extractelement <2 x double> %w, i32 1
  %r = fadd double %a, %b
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; CHECK-LABEL: define {{.*}} @test(
; CHECK-NOT:     call {{.*}}@__enzyme_autodiff
; CHECK-LABEL: define internal {{.*}} @f.rev(
; CHECK:         fmul <2 x double>
; CHECK:         extractelement <2 x double> {{.*}}, i{{32|64}} 0
; CHECK:         extractelement <2 x double> {{.*}}, i{{32|64}} 1
; CHECK:         ret { double, double }
