; Forward mode of vector code: the tangent of a shufflevector of active
; vectors is the same shuffle of their tangents; insertelement and
; extractelement repeat on the tangents with the primal's index.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(<2 x double> %a, <2 x double> %b, i32 %i) {
  %s = shufflevector <2 x double> %a, <2 x double> %b, <2 x i32> <i32 3, i32 0>
  %m = fmul <2 x double> %s, %a
  %e = extractelement <2 x double> %m, i32 %i
  ret double %e
}

define double @test(<2 x double> %a, <2 x double> %da, <2 x double> %b, <2 x double> %db, i32 %i) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %a, <2 x double> %da, <2 x double> %b, <2 x double> %db, i32 %i)
  ret double %t
}

; CHECK-LABEL: define internal { double, double } @f.fwd(
; CHECK-SAME:    <2 x double> %0, <2 x double> %1, i32 %2, <2 x double> %3, <2 x double> %4)
; CHECK:         shufflevector <2 x double> %3, <2 x double> %4, <2 x i32> <i32 3, i32 0>
; CHECK:         extractelement <2 x double> {{%.*}}, i32 %2
