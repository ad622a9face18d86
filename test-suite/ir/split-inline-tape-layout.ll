; Inline tapes (enzyme_allocated) have a layout fixed at compile time: each
; block's batch and each callee's region at a constant offset, packed and
; accessed with alignment 1; blocks on different paths share offsets. Here
; the then-branch records a float at 0, the else-branch's callee records a
; double in its region at 0, so the tape needs 8 bytes, and the caller's
; 12-byte buffer (returned as the ABI's { i64, i32 }) holds it.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

; CHECK-LABEL: define {{.*}} @aug(
; CHECK: %inline.tape = alloca [16 x i8], align 16
; CHECK: call void @branchy.aug(ptr %0, ptr %2, i32 %4, ptr %1, ptr %3, ptr %inline.tape)
; CHECK: load { i64, i32 }, ptr %inline.tape, align 1

; CHECK-LABEL: define internal void @branchy.aug(
; CHECK: store float {{.*}}, ptr %5, align 1
; CHECK: call void @inner.aug(ptr %0, ptr %3, ptr %5)
; CHECK-LABEL: define internal void @branchy.rev(
; CHECK: load float, ptr %5, align 1
; CHECK: call void @inner.rev(ptr %0, ptr %3, ptr %5)
; CHECK-LABEL: define internal void @inner.aug(
; CHECK: store double {{.*}}, ptr %2, align 1
; CHECK-LABEL: define internal void @inner.rev(
; CHECK: load double, ptr %2, align 1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@enzyme_allocated = external global i32, align 4
@enzyme_const = external global i32, align 4
define dso_local void @inner(ptr noundef %0) {
  %2 = load double, ptr %0, align 8
  %3 = fmul double %2, %2
  store double %3, ptr %0, align 8
  ret void
}
define dso_local void @branchy(ptr noundef %0, ptr noundef %1, i32 noundef %2) {
  %.not = icmp eq i32 %2, 0
  br i1 %.not, label %7, label %4
4:                                                ; preds = %3
  %5 = load float, ptr %1, align 4
  %6 = fmul float %5, %5
  store float %6, ptr %1, align 4
  br label %8
7:                                                ; preds = %3
  call void @inner(ptr noundef %0)
  br label %8
8:                                                ; preds = %7, %4
  ret void
}
define dso_local { i64, i32 } @aug(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) {
  %6 = load i32, ptr @enzyme_allocated, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  %8 = call { i64, i32 } (ptr, ...) @__enzyme_augmentfwd(ptr noundef nonnull @branchy, i32 noundef %6, i32 noundef 12, ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4)
  ret { i64, i32 } %8
}
declare { i64, i32 } @__enzyme_augmentfwd(ptr noundef, ...)
