; Absolute value and negation as bitwise operations on the bits of floats
; (SSE's _mm_and_pd / _mm_xor_pd at -O0): the `and` with every bit but the
; sign becomes llvm.fabs, the `xor` with the sign bit fneg, before
; differentiation, so their derivatives are the floating-point ones (sign(x)
; and -1) instead of an error about bits moved as integers.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)

; out = |x| - x (both lanes)
define void @f(ptr %x, ptr %out) {
  %v = load <2 x double>, ptr %x, align 16
  %bits = bitcast <2 x double> %v to <2 x i64>
  %absbits = and <2 x i64> %bits, <i64 9223372036854775807, i64 9223372036854775807>
  %abs = bitcast <2 x i64> %absbits to <2 x double>
  %negbits = xor <2 x i64> %bits, <i64 -9223372036854775808, i64 -9223372036854775808>
  %neg = bitcast <2 x i64> %negbits to <2 x double>
  %r = fadd <2 x double> %abs, %neg
  store <2 x double> %r, ptr %out, align 16
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %o, ptr %do) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %o, ptr %do)
  ret void
}

; CHECK-LABEL: define internal void @f.grad(
; CHECK-NOT:     and <2 x i64>
; CHECK-NOT:     xor <2 x i64>
; CHECK:         [[V:%.*]] = load <2 x double>, ptr %0
; CHECK:         [[ABS:%.*]] = tail call <2 x double> @llvm.fabs.v2f64(<2 x double> [[V]])
; CHECK:         fsub <2 x double> [[ABS]], [[V]]
; The adjoint: d|x|/dx is the sign of x, d(-x)/dx is -1.
; CHECK:         [[D:%.*]] = load <2 x double>, ptr %3
; CHECK:         [[SIGN:%.*]] = call <2 x double> @llvm.copysign.v2f64(<2 x double> <double 1.000000e+00, double 1.000000e+00>, <2 x double> [[V]])
; CHECK:         [[T:%.*]] = fmul <2 x double> [[SIGN]], [[D]]
; CHECK:         fsub reassoc <2 x double> [[T]], [[D]]
; CHECK:         ret void
