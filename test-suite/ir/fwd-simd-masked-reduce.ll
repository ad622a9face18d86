; Forward mode of SIMD intrinsics: a masked load reads the tangents of the
; loaded lanes from the shadow (the passthru's tangent elsewhere), a masked
; store writes the stored lanes' tangents, and the tangent of
; vector.reduce.fmax is the tangent of the first element equal to the maximum.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_fwddiff(ptr, ...)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)
define double @g(ptr %x, ptr %out) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %x, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>, <4 x double> zeroinitializer)
  %p = fmul <4 x double> %v, %v
  call void @llvm.masked.store.v4f64.p0(<4 x double> %p, ptr %out, i32 8, <4 x i1> <i1 true, i1 false, i1 true, i1 true>)
  %m = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %p)
  ret double %m
}
define double @testf(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @g, ptr %x, ptr %dx, ptr %out, ptr %dout)
  ret double %t
}

; CHECK-LABEL: define internal { double, double } @g.fwd(
; CHECK:      [[V:%.*]] = tail call <4 x double> @llvm.masked.load.v4f64.p0(ptr %0, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>
; CHECK-NEXT: [[DV:%.*]] = tail call <4 x double> @llvm.masked.load.v4f64.p0(ptr %2, i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>
; CHECK:      [[DP:%.*]] = fadd <4 x double>
; CHECK:      tail call void @llvm.masked.store.v4f64.p0(<4 x double> [[DP]], ptr %3, i32 8, <4 x i1> <i1 true, i1 false, i1 true, i1 true>)
; CHECK:      [[M:%.*]] = tail call double @llvm.vector.reduce.fmax.v4f64(
; CHECK-COUNT-4: fcmp oeq double {{%.*}}, [[M]]
; CHECK:      [[PICK:%.*]] = select <4 x i1> {{%.*}}, <4 x double> [[DP]], <4 x double>
; CHECK-NEXT: [[T:%.*]] = tail call double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> [[PICK]])
; CHECK:      insertvalue { double, double } {{%.*}}, double [[T]], 1
