; A double's bits inserted into a vector of i64 (optimised code builds the
; packet that Eigen's pabs masks from a constant and a double: `m <<
; c, x` then `m.cwiseAbs()` at -O2), and a lane of such a vector extracted
; and read back as a double. Both become lane moves of <2 x double>, so the
; sign mask folds to llvm.fabs and the derivative follows the lanes; this
; was "floats whose bits carry a derivative but are moved as integers".
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; |x| + |c| (c = 1.5, lane 0) + the bits of x read back from lane 1: 2x.
define double @f(double %x) {
  %xb = bitcast double %x to i64
  %v = insertelement <2 x i64> <i64 4609434218613702656, i64 poison>, i64 %xb, i64 1
  %absbits = and <2 x i64> %v, <i64 9223372036854775807, i64 9223372036854775807>
  %abs = bitcast <2 x i64> %absbits to <2 x double>
  %a0 = extractelement <2 x double> %abs, i64 0
  %a1 = extractelement <2 x double> %abs, i64 1
  %lane = extractelement <2 x i64> %v, i64 1
  %back = bitcast i64 %lane to double
  %s = fadd double %a0, %a1
  %r = fadd double %s, %back
  ret double %r
}

define double @test(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; A constant put into a lane of doubles moved as <2 x i64>, and a lane
; filled from a double loaded as an i64: |p[1]| + |c| + |p[0]|.
define double @g(ptr %p) {
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %d = load double, ptr %q
  %v = insertelement <2 x double> poison, double %d, i64 0
  %vb = bitcast <2 x double> %v to <2 x i64>
  %w = insertelement <2 x i64> %vb, i64 -4613433415082807656, i64 1
  %l = load i64, ptr %p
  %u = insertelement <2 x i64> poison, i64 %l, i64 0
  %uw = insertelement <2 x i64> %u, i64 0, i64 1
  %a1 = and <2 x i64> %w, <i64 9223372036854775807, i64 9223372036854775807>
  %a2 = and <2 x i64> %uw, <i64 9223372036854775807, i64 9223372036854775807>
  %f1 = bitcast <2 x i64> %a1 to <2 x double>
  %f2 = bitcast <2 x i64> %a2 to <2 x double>
  %s = fadd <2 x double> %f1, %f2
  %e0 = extractelement <2 x double> %s, i64 0
  %e1 = extractelement <2 x double> %s, i64 1
  %r = fadd double %e0, %e1
  ret double %r
}

define void @test_g(ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @f.grad(
; CHECK-NOT:     and <2 x i64>
; CHECK-NOT:     bitcast double {{.*}} to i64
; CHECK:         [[V:%.*]] = insertelement <2 x double> <double 1.500000e+00, double poison>, double %0, i64 1
; CHECK:         [[SIGN:%.*]] = call <2 x double> @llvm.copysign.v2f64(<2 x double> <double 1.000000e+00, double 1.000000e+00>, <2 x double> [[V]])
; CHECK:         [[S1:%.*]] = extractelement <2 x double> [[SIGN]], i64 1
; The lane read back as a double adds 1.
; CHECK:         fadd reassoc double [[S1]], 1.000000e+00
; CHECK:         ret

; The adjoint of each |.| lane reaches its double: p[1] through lane 0 of
; the first packet, p[0] (loaded as an i64) through lane 0 of the second.
; CHECK-LABEL: define internal {{.*}} @g.grad(
; CHECK-NOT:     and <2 x i64>
; CHECK:         call <2 x double> @llvm.copysign.v2f64
; CHECK:         store double {{.*}}, ptr %1
; CHECK:         ret void
