; A copy of memory with derivatives that nothing types (no TBAA, no access
; of the bytes anywhere, the request's own arguments untyped): reverse mode
; cannot know whether to move adjoints, so the augmented function calls
; the run-time's report before the copy, and the reverse pass moves
; nothing. The integer copy (load i64 / store i64) gets the same; an
; integer computed here and stored over the bytes clears their adjoints
; whatever they held.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @copy(ptr %dst, ptr %src, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void
}

define void @copy_int(ptr %dst, ptr %src) {
  %bits = load i64, ptr %src
  store i64 %bits, ptr %dst
  ret void
}

define void @put_int(ptr %dst, i64 %k) {
  %bits = mul i64 %k, 3
  store i64 %bits, ptr %dst
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @copy, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @copy_int, ptr %d, ptr %dd, ptr %s, ptr %ds)
  call void (ptr, ...) @__enzyme_autodiff(ptr @put_int, ptr %d, ptr %dd, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @copy.aug(
; CHECK:         call void @__enzyme_rt_untyped_copy(ptr nonnull @enzyme.copy.fn, ptr null, i64 %2)
; CHECK-LABEL: define internal void @copy.rev(
; CHECK-NOT:     enzyme.memcpy.adjoint
; CHECK:         ret void

; CHECK-LABEL: define internal void @copy_int.aug(
; CHECK:         call void @__enzyme_rt_untyped_copy(ptr nonnull @enzyme.copy.fn{{.*}}, ptr null, i64 8)
; CHECK-LABEL: define internal void @copy_int.rev(
; CHECK-NOT:     fadd
; CHECK:         ret void

; CHECK-LABEL: define internal void @put_int.aug(
; CHECK-NOT:     __enzyme_rt_untyped_copy
; CHECK-LABEL: define internal void @put_int.rev(
; CHECK-NEXT:  return:
; CHECK-NEXT:    store i64 0, ptr %2
