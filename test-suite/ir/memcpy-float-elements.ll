; The memcpy adjoint works element-wise in the type the copied memory holds:
; the destination is read as float, so the helper is the float one.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define float @f(ptr %dst, ptr %src, i64 %n) {
  %bytes = shl i64 %n, 2
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  %v = load float, ptr %dst
  ret float %v
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @f.rev(
; CHECK-NOT:     enzyme.memcpy.adjoint.double
; CHECK:         call void @enzyme.memcpy.adjoint.float(
; CHECK:         ret void

; CHECK-LABEL: define internal void @enzyme.memcpy.adjoint.float(
; CHECK:         udiv i64 {{%[0-9]+}}, 4
; CHECK:         load float
; CHECK:         store float 0.000000e+00
; CHECK:         fadd float
; CHECK-LABEL: {{^}}define
