; A double copied through memory as an i64 (what instcombine makes of
; memcpy(out, in, sizeof(double)), and SROA of mixed copies): *out = *in
; bit-for-bit, then f = (*out)^2. The adjoint must move from the shadow of
; out to the shadow of in: din += 2*v*seed, dout left zero.
;
; Regression test: the store rule (ReversePass.cpp, reverseInstruction, StoreInst) skips
; stores whose value type is not floating point, and nothing else accounts
; for the integer load/store pair, so f.rev accumulates 2*v*seed into dout
; and never touches din: the gradient with respect to `in` is silently 0
; (and dout keeps an adjoint for memory that was overwritten). The memory at
; %out is read back as double in the same function, so the bytes' type is
; known. Expected: a diagnostic or a float-typed copy of the adjoint.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %in, ptr %out) {
  %i = load i64, ptr %in
  store i64 %i, ptr %out
  %v = load double, ptr %out
  %r = fmul double %v, %v
  ret double %r
}

define double @test(ptr %in, ptr %din, ptr %out, ptr %dout) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %in, ptr %din, ptr %out, ptr %dout)
  ret double %g
}

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, ptr [[DIN:%[0-9]+]], ptr [[DOUT:%[0-9]+]], double {{%[0-9]+}}, ptr
; CHECK:         store {{.*}}, ptr [[DIN]]
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
