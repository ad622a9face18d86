; fma(x, y, z) and llvm.fmuladd: d/dx = y, d/dy = x, d/dz = 1 (the adjoint
; itself). One request per form; they share nothing.
; RUN: %opt_enzyme -passes=enzyme -S %s -o %t
; RUN: FileCheck %s --check-prefix=FMA < %t
; RUN: FileCheck %s --check-prefix=FMULADD < %t

target triple = "x86_64-unknown-linux-gnu"

declare { double, double, double } @__enzyme_autodiff(ptr, ...)
declare double @fma(double, double, double)
declare double @llvm.fmuladd.f64(double, double, double)

define double @f(double %x, double %y, double %z) {
  %r = call double @fma(double %x, double %y, double %z)
  ret double %r
}

define double @g(double %x, double %y, double %z) {
  %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  ret double %r
}

define { double, double, double } @test_fma(double %x, double %y, double %z) {
  %r = call { double, double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y, double %z)
  ret { double, double, double } %r
}

define { double, double, double } @test_fmuladd(double %x, double %y, double %z) {
  %r = call { double, double, double } (ptr, ...) @__enzyme_autodiff(ptr @g, double %x, double %y, double %z)
  ret { double, double, double } %r
}

; FMA-LABEL: define { double, double, double } @test_fma(
; FMA:         call { double, double, double } @f.grad(double %x, double %y, double %z)

; FMULADD-LABEL: define { double, double, double } @test_fmuladd(
; FMULADD:         call { double, double, double } @g.grad(double %x, double %y, double %z)

; FMA-LABEL: define internal { double, double, double } @f.rev(
; FMA-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[Z:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; FMA-DAG:     [[GX:%[0-9]+]] = fmul double [[Y]], [[DRET]]
; FMA-DAG:     [[GY:%[0-9]+]] = fmul double [[X]], [[DRET]]
; FMA-NOT:     @fma
; FMA:         [[GZ:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; FMA:         insertvalue { double, double, double } %{{[0-9]+}}, double [[GZ]], 2
; FMA-LABEL: {{^}}define

; FMULADD-LABEL: define internal { double, double, double } @g.rev(
; FMULADD-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[Z:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; FMULADD-DAG:     [[GX:%[0-9]+]] = fmul double [[Y]], [[DRET]]
; FMULADD-DAG:     [[GY:%[0-9]+]] = fmul double [[X]], [[DRET]]
; FMULADD-NOT:     @llvm.fmuladd
; FMULADD:         [[GZ:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; FMULADD:         insertvalue { double, double, double } %{{[0-9]+}}, double [[GZ]], 2
; FMULADD-LABEL: {{^}}define
