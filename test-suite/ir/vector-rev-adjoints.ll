; Vector reverse mode (enzyme_width, 4 in __enzyme_autodiff): the pair takes
; the 4 shadows of a duplicated pointer as one [4 x ptr] and returns the 4
; gradients of each active double as one <4 x double>. The adjoint of a
; double is a <4 x double> throughout, so each rule is one vector
; instruction on all directions (fmul by a splat of the partial), and the
; primal values and partials (x * y, cos) are computed once, not per lane.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_width = external global i32
@enzyme_dupnoneed = external global i32

declare { [4 x double], [4 x double] } @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define void @f(double %x, double %y, ptr %out) {
  %m = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %m)
  %v = fmul double %s, %x
  store double %v, ptr %out
  ret void
}

define { [4 x double], [4 x double] } @test(double %x, double %y, ptr %out, ptr %d0, ptr %d1, ptr %d2, ptr %d3) {
  %w = load i32, ptr @enzyme_width
  %n = load i32, ptr @enzyme_dupnoneed
  %g = call { [4 x double], [4 x double] } (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %w, i32 4, double %x, double %y, i32 %n, ptr %out, ptr %d0, ptr %d1, ptr %d2, ptr %d3)
  ret { [4 x double], [4 x double] } %g
}

; CHECK-LABEL: define { [4 x double], [4 x double] } @test(
; CHECK:         call { <4 x double>, <4 x double> } @f.grad(double %x, double %y, ptr %out, [4 x ptr]

; CHECK-LABEL: define internal { <4 x double>, <4 x double> } @f.grad(
; CHECK-SAME:    double [[X:%[0-9a-z]+]], double [[Y:%[0-9a-z]+]], ptr {{.*}}, [4 x ptr] [[S:%[0-9a-z]+]])
; CHECK:         [[M:%.*]] = fmul double [[X]], [[Y]]
; CHECK-NOT:     fmul double [[X]], [[Y]]
; The seeds: one load per direction, from the four shadows.
; CHECK-COUNT-4: load double, ptr
; CHECK:         fmul <4 x double>
; CHECK:         call double @llvm.cos.f64(double [[M]])
; CHECK-NOT:     call double @llvm.cos.f64(
; CHECK-NOT:     fmul double
; CHECK:         fmul <4 x double>
; CHECK-NOT:     fmul double
; CHECK:         ret { <4 x double>, <4 x double> }
