; A call through a pointer one of whose possible targets (twice) calls
; through a pointer of the same type again: both calls share one dispatcher
; per mode, built once, instead of leaving a second, unused set behind.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s \
; RUN:   --implicit-check-not=@enzyme.indirect.fwd. \
; RUN:   --implicit-check-not=@enzyme.indirect.aug. \
; RUN:   --implicit-check-not=@enzyme.indirect.rev.

; CHECK-LABEL: define internal void @outer.fwd(
; CHECK: call void @enzyme.indirect.fwd(ptr %0, ptr %1, ptr %2)
; CHECK-LABEL: define internal void @inner.fwd(
; CHECK: call void @enzyme.indirect.fwd(ptr %0, ptr %1, ptr %2)
; CHECK-LABEL: define internal void @enzyme.indirect.fwd(
; CHECK: icmp eq ptr %0, @square
; CHECK: call void @square.fwd(ptr %1, ptr %2)
; CHECK: icmp eq ptr %0, @twice
; CHECK: call void @twice.fwd(ptr %1, ptr %2)

; CHECK-LABEL: define internal void @outer.aug(
; CHECK: call void @enzyme.indirect.aug(ptr %0, ptr %1, ptr %2, ptr %3)
; CHECK-LABEL: define internal void @outer.rev(
; CHECK: call void @enzyme.indirect.rev(ptr %0, ptr %1, ptr %2, ptr %3)
; CHECK-LABEL: define internal void @inner.aug(
; CHECK: call void @enzyme.indirect.aug(ptr %0, ptr %1, ptr %2, ptr %3)
; CHECK-LABEL: define internal void @inner.rev(
; CHECK: call void @enzyme.indirect.rev(ptr %0, ptr %1, ptr %2, ptr %3)
; CHECK-LABEL: define internal void @enzyme.indirect.aug(
; CHECK-LABEL: define internal void @enzyme.indirect.rev(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = dso_local global [2 x ptr] [ptr @square, ptr @twice], align 16
@enzyme_const = external global i32, align 4
@enzyme_dup = external global i32, align 4

define dso_local void @square(ptr noundef %p) {
  %x = load double, ptr %p, align 8
  %y = fmul double %x, %x
  store double %y, ptr %p, align 8
  ret void
}

define dso_local void @inner(ptr noundef %fn, ptr noundef %p) {
  call void %fn(ptr noundef %p)
  ret void
}

define dso_local void @twice(ptr noundef %p) {
  call void @inner(ptr noundef @square, ptr noundef %p)
  call void @inner(ptr noundef @square, ptr noundef %p)
  ret void
}

define dso_local void @outer(ptr noundef %fn, ptr noundef %p) {
  call void %fn(ptr noundef %p)
  ret void
}

define dso_local void @tangent(ptr noundef %fn, ptr noundef %p, ptr noundef %dp) {
  %c = load i32, ptr @enzyme_const, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @outer, i32 noundef %c, ptr noundef %fn, i32 noundef %d, ptr noundef %p, ptr noundef %dp)
  ret void
}

define dso_local void @gradient(ptr noundef %fn, ptr noundef %p, ptr noundef %dp) {
  %c = load i32, ptr @enzyme_const, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @outer, i32 noundef %c, ptr noundef %fn, i32 noundef %d, ptr noundef %p, ptr noundef %dp)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...)
declare void @__enzyme_autodiff(ptr noundef, ...)
