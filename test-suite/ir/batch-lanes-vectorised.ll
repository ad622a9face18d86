; __enzyme_batch(f, enzyme_width, 4, x0..x3, enzyme_scalar, a) with
; f(x, a) = x * x + a: the request becomes a call of f.batch4.vs, which takes
; the per-lane x as one <4 x double> and the shared a as a double; each lane's
; call of f is inlined (LLVM's inline cost model agrees for a function this
; small), leaving 4 isomorphic scalar chains between extractelement and
; insertelement. In the -O2 pipeline (the engine runs before the
; vectorisers) the SLP vectoriser merges them: one fmul and one fadd on
; <4 x double>, a broadcast of a, and the caller's four loads of consecutive
; doubles become one <4 x double> load.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s
; RUN: %opt_enzyme -passes='default<O2>' -S %s | FileCheck %s --check-prefix=O2

; CHECK-LABEL: define void @caller(
; CHECK: %[[V:.*]] = call <4 x double> @sq.batch4.vs(<4 x double> %{{.*}}, double %a)
; CHECK: extractelement <4 x double> %[[V]], i64 3
; CHECK-LABEL: define internal <4 x double> @sq.batch4.vs(<4 x double> %0, double %1)
; CHECK-NOT: call
; CHECK-COUNT-4: fmul double
; CHECK: ret <4 x double>

; O2-LABEL: define void @caller(
; O2: %[[X:.*]] = load <4 x double>, ptr %in
; O2: call <4 x double> @sq.batch4.vs(<4 x double> %[[X]], double %a)
; O2-LABEL: define internal <4 x double> @sq.batch4.vs(
; O2-NEXT: entry:
; O2-NEXT: fmul <4 x double> %0, %0
; O2-NEXT: insertelement <4 x double> poison, double %1, i64 0
; O2-NEXT: shufflevector
; O2-NEXT: fadd <4 x double>
; O2-NEXT: ret <4 x double>

target triple = "x86_64-unknown-linux-gnu"

@enzyme_width = external global i32
@enzyme_scalar = external global i32

define double @sq(double %x, double %a) {
  %m = fmul double %x, %x
  %r = fadd double %m, %a
  ret double %r
}

declare [4 x double] @__enzyme_batch(ptr, ...)

define void @caller(ptr %in, ptr %out, double %a) {
  %w = load i32, ptr @enzyme_width
  %s = load i32, ptr @enzyme_scalar
  %p1 = getelementptr double, ptr %in, i64 1
  %p2 = getelementptr double, ptr %in, i64 2
  %p3 = getelementptr double, ptr %in, i64 3
  %x0 = load double, ptr %in
  %x1 = load double, ptr %p1
  %x2 = load double, ptr %p2
  %x3 = load double, ptr %p3
  %r = call [4 x double] (ptr, ...) @__enzyme_batch(ptr @sq, i32 %w, i32 4, double %x0, double %x1, double %x2, double %x3, i32 %s, double %a)
  store [4 x double] %r, ptr %out
  ret void
}
