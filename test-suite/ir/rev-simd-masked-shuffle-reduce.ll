; Reverse mode of SIMD operations: a masked load (the adjoints of its lanes go
; back to the shadow memory, masked), a broadcast shufflevector (the adjoint of
; the element it repeats is the sum of the four lanes: one shuffle back per
; repetition), a masked store (its shadow lanes are read and cleared) and a
; vector.reduce.fadd (the adjoint is a splat). Values in runtime tests.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

; out[0..3] (masked to lanes 0, 1, 3) = broadcast(x[0]) * load(x) (masked, 1.0 elsewhere); also
; returns sum.
define double @f(ptr %x, ptr %out) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %x, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>, <4 x double> <double 1.0, double 1.0, double 1.0, double 1.0>)
  %b = shufflevector <4 x double> %v, <4 x double> poison, <4 x i32> zeroinitializer
  %p = fmul <4 x double> %b, %v
  call void @llvm.masked.store.v4f64.p0(<4 x double> %p, ptr %out, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>)
  %s = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %p)
  ret double %s
}

define void @test(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %out, ptr %dout)
  ret void
}

; CHECK-LABEL: define internal void @f.grad(
; The adjoints of the stored lanes, read from the shadow and cleared:
; CHECK:      [[DOUT:%.*]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %3, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>
; CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(<4 x double> <double 0.000000e+00, double 0.000000e+00, double poison, double 0.000000e+00>, ptr %3, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>)
; The sum's adjoint, a splat of 1, joins them:
; CHECK-NEXT: [[DP:%.*]] = fadd reassoc <4 x double> [[DOUT]], <double 1.000000e+00, double 1.000000e+00, double 1.000000e+00, double 1.000000e+00>
; The broadcast's adjoint: element 0 collects all four lanes.
; CHECK-COUNT-4: shufflevector <4 x double> {{%.*}}, <4 x double> <double -0.000000e+00, double poison, double poison, double poison>, <4 x i32> <i32 {{[0-3]}}, i32 4, i32 poison, i32 4>
; The loaded lanes' adjoints go back to the shadow of x, masked:
; CHECK:      [[OLD:%.*]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %2, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>
; CHECK-NEXT: [[NEW:%.*]] = fadd <4 x double> [[OLD]],
; CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(<4 x double> [[NEW]], ptr %2, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>)
