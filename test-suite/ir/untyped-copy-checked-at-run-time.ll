; A copy of memory with derivatives that nothing types (no TBAA, no access
; of the bytes anywhere, the request's own arguments untyped): reverse mode
; cannot know whether to move adjoints, so the augmented function checks,
; before the copy, that the shadows of both ends are zero there, and the
; reverse pass that the destination's still is, which the run-time stops
; the program otherwise; then nothing moves, whatever the bytes hold. The
; integer copy (load i64 / store i64) gets the same; an integer computed
; here and stored over the bytes clears their adjoints whatever they held.
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
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, i64 [[N:%[0-9]+]], ptr [[DD:%[0-9]+]], ptr [[DS:%[0-9]+]],
; CHECK:         call void @__enzyme_rt_untyped_copy_check(ptr [[DD]], ptr [[DS]], i64 [[N]], ptr nonnull @enzyme.copy.fn{{.*}}, ptr null)
; CHECK-NEXT:    call void @llvm.memcpy
; CHECK-LABEL: define internal void @copy.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, i64 [[N:%[0-9]+]], ptr [[DD:%[0-9]+]],
; CHECK-NOT:     enzyme.memcpy.adjoint
; CHECK:         call void @__enzyme_rt_untyped_copy_check(ptr [[DD]], ptr null, i64 [[N]], ptr nonnull @enzyme.copy.fn{{.*}}, ptr null)
; CHECK-NOT:     enzyme.memcpy.adjoint
; CHECK:         ret void

; CHECK-LABEL: define internal void @copy_int.aug(
; CHECK:         call void @__enzyme_rt_untyped_copy_check(ptr %2, ptr %3, i64 8, ptr nonnull @enzyme.copy.fn{{.*}}, ptr null)
; CHECK-LABEL: define internal void @copy_int.rev(
; CHECK-NOT:     fadd
; CHECK:         call void @__enzyme_rt_untyped_copy_check(ptr %2, ptr null, i64 8, ptr nonnull @enzyme.copy.fn{{.*}}, ptr null)
; CHECK-NOT:     fadd
; CHECK:         ret void

; CHECK-LABEL: define internal void @put_int.aug(
; CHECK-NOT:     __enzyme_rt_untyped_copy
; CHECK-LABEL: define internal void @put_int.rev(
; CHECK-NEXT:  return:
; CHECK-NEXT:    store i64 0, ptr %2
