; A call through a function pointer whose argument carries derivatives goes
; to dispatchers that compare the pointer with each function of its type
; whose address is taken (square, triple: stored in a table) and call that
; function's augmented or reverse function; any other pointer traps. The
; function being differentiated (apply), named only by the request, is not
; a possible target.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

; CHECK-LABEL: define internal void @apply.aug(
; CHECK: call void @enzyme.indirect.aug(ptr %0, ptr %1, ptr %2, ptr %3)
; CHECK-LABEL: define internal void @apply.rev(
; CHECK: call void @enzyme.indirect.rev(ptr %0, ptr %1, ptr %2, ptr %3)

; CHECK-LABEL: define internal void @enzyme.indirect.aug(
; CHECK-NOT: @apply
; CHECK: icmp eq ptr %0, @square
; CHECK: call void @square.aug(ptr %1, ptr %2, ptr %3)
; CHECK: icmp eq ptr %0, @triple
; CHECK: call void @triple.aug(ptr %1, ptr %2, ptr %3)
; CHECK: call void @llvm.trap()
; CHECK-NEXT: unreachable
; CHECK-LABEL: define internal void @enzyme.indirect.rev(
; CHECK: icmp eq ptr %0, @square
; CHECK: call void @square.rev(ptr %1, ptr %2, ptr %3)
; CHECK: icmp eq ptr %0, @triple
; CHECK: call void @triple.rev(ptr %1, ptr %2, ptr %3)
; CHECK: call void @llvm.trap()

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@table = dso_local global [2 x ptr] [ptr @square, ptr @triple], align 16
@enzyme_const = external global i32, align 4
@enzyme_dup = external global i32, align 4
define dso_local void @square(ptr noundef %0) {
  %2 = load double, ptr %0, align 8
  %3 = fmul double %2, %2
  store double %3, ptr %0, align 8
  ret void
}
define dso_local void @triple(ptr noundef %0) {
  %2 = load double, ptr %0, align 8
  %3 = fmul double %2, 3.000000e+00
  store double %3, ptr %0, align 8
  ret void
}
define dso_local void @apply(ptr noundef %0, ptr noundef %1) {
  call void %0(ptr noundef %1)
  ret void
}
define dso_local void @grad(i32 noundef %0, ptr noundef %1, ptr noundef %2) {
  %4 = load i32, ptr @enzyme_const, align 4
  %5 = sext i32 %0 to i64
  %6 = getelementptr inbounds [2 x ptr], ptr @table, i64 0, i64 %5
  %7 = load ptr, ptr %6, align 8
  %8 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @apply, i32 noundef %4, ptr noundef %7, i32 noundef %8, ptr noundef %1, ptr noundef %2)
  ret void
}
declare void @__enzyme_autodiff(ptr noundef, ...)
