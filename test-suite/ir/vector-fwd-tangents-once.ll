; Forward vector mode (enzyme_width, 4): the tangent function takes the 4
; tangents of each duplicated double as one <4 x double> and returns them as
; one; the primal (x * y, sin) and the partial (cos) are computed once, and
; each rule is applied to the 4 lanes (isomorphic scalar chains), which the
; SLP vectoriser of the pipeline turns into one vector instruction per rule:
; not 4 copies of the scalar function.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s
; RUN: %opt_enzyme -passes='enzyme,function(slp-vectorizer,instcombine)' -mattr=+avx2 -S %s | FileCheck %s --check-prefix=SLP

target triple = "x86_64-unknown-linux-gnu"

@enzyme_width = external global i32

declare { [4 x double] } @__enzyme_fwddiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %m)
  ret double %s
}

define { [4 x double] } @test(double %x, double %y) {
  %w = load i32, ptr @enzyme_width
  %t = call { [4 x double] } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 4, double %x, double 1.0, double 0.0, double 2.0, double 0.5, double %y, double 0.0, double 1.0, double 0.0, double 3.0)
  ret { [4 x double] } %t
}

; CHECK-LABEL: define { [4 x double] } @test(
; CHECK:         [[R:%.*]] = call { double, <4 x double> } @f.fwd(double %x, double %y, <4 x double> <double 1.000000e+00, double 0.000000e+00, double 2.000000e+00, double 5.000000e-01>, <4 x double> <double 0.000000e+00, double 1.000000e+00, double 0.000000e+00, double 3.000000e+00>)
; CHECK:         [[T:%.*]] = extractvalue { double, <4 x double> } [[R]], 1
; CHECK:         extractelement <4 x double> [[T]], i64 0
; CHECK:         extractelement <4 x double> [[T]], i64 3

; CHECK-LABEL: define internal { double, <4 x double> } @f.fwd(
; CHECK-SAME:    double [[X:%[0-9a-z]+]], double [[Y:%[0-9a-z]+]], <4 x double> [[DX:%[0-9a-z]+]], <4 x double> [[DY:%[0-9a-z]+]])
; CHECK:         [[M:%.*]] = fmul double [[X]], [[Y]]
; CHECK-NOT:     fmul double [[X]], [[Y]]
; CHECK:         call double @llvm.sin.f64(double [[M]])
; CHECK-NEXT:    [[C:%.*]] = {{(tail )?}}call double @llvm.cos.f64(double [[M]])
; CHECK-NOT:     call double @llvm.{{sin|cos}}.f64(
; CHECK:         fmul double [[C]],
; CHECK:         insertelement <4 x double> poison,
; CHECK-COUNT-3: fmul double [[C]],
; CHECK-NOT:     call double @llvm.{{sin|cos}}.f64(
; CHECK:         ret { double, <4 x double> }

; SLP-LABEL: define internal { double, <4 x double> } @f.fwd(
; SLP-SAME:    double [[X:%[0-9a-z]+]], double [[Y:%[0-9a-z]+]], <4 x double> [[DX:%[0-9a-z]+]], <4 x double> [[DY:%[0-9a-z]+]])
; SLP-COUNT-1: call double @llvm.cos.f64(
; SLP:         [[A:%.*]] = fmul <4 x double> {{%.*}}, [[DX]]
; SLP:         [[B:%.*]] = fmul <4 x double> {{%.*}}, [[DY]]
; SLP:         [[S:%.*]] = fadd <4 x double> [[A]], [[B]]
; SLP:         [[T:%.*]] = fmul <4 x double> {{%.*}}, [[S]]
; SLP-NOT:     fmul double
; SLP:         insertvalue { double, <4 x double> } {{%.*}}, <4 x double> [[T]], 1
