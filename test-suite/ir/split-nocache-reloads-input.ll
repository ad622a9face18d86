; enzyme_nocache in split mode: the caller promises that the memory x points
; to is not changed between __enzyme_augmentfwd and __enzyme_reverse. For
; square (y[0] = x[0] * x[1]) the reverse pass needs x[0] and x[1]: without
; the marker the augmented forward function stores them on the tape and the
; reverse function reads them back; with it, the augmented forward function
; stores nothing and the reverse function loads them from x again. The inline
; tape that __enzyme_augmentsize measures shrinks from 16 bytes to 0.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

; CHECK-LABEL: define {{.*}} @aug_plain(
; CHECK: call void @[[AUG:square\.aug[.0-9]*]](
; CHECK-LABEL: define {{.*}} @rev_plain(
; CHECK: call void @[[REV:square\.rev[.0-9]*]](
; CHECK-LABEL: define {{.*}} @aug_kept(
; CHECK: call void @[[AUGK:square\.aug[.0-9]*]](
; CHECK-LABEL: define {{.*}} @rev_kept(
; CHECK: call void @[[REVK:square\.rev[.0-9]*]](
; CHECK-LABEL: define i64 @size_plain(
; CHECK-NEXT: ret i64 16
; CHECK-LABEL: define i64 @size_kept(
; CHECK-NEXT: ret i64 0

; Without the marker: x[0] and x[1] go through the tape.
; CHECK: define internal void @[[AUG]](
; CHECK: store double %m, ptr %1
; CHECK: store double %x1, ptr
; CHECK: store double %x0, ptr
; CHECK: define internal void @[[REV]](
; CHECK-NOT: load double, ptr %0
; CHECK: ret void

; With it: nothing recorded, x read again.
; CHECK: define internal void @[[AUGK]](
; CHECK: store double %m, ptr %1
; CHECK-NEXT: ret void
; CHECK: define internal void @[[REVK]](
; CHECK: load double, ptr %0
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_nocache = external global i32, align 4

define void @square(ptr noalias noundef readonly %x, ptr noalias noundef writeonly %y) {
  %x0 = load double, ptr %x, align 8
  %p1 = getelementptr inbounds i8, ptr %x, i64 8
  %x1 = load double, ptr %p1, align 8
  %m = fmul double %x0, %x1
  store double %m, ptr %y, align 8
  ret void
}

declare ptr @__enzyme_augmentfwd(ptr, ...)
declare void @__enzyme_reverse(ptr, ...)
declare i64 @__enzyme_augmentsize(ptr, ...)

define ptr @aug_plain(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %d = load i32, ptr @enzyme_dup, align 4
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @square, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %y, ptr %dy)
  ret ptr %t
}

define void @rev_plain(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %t) {
  %d = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_reverse(ptr @square, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %y, ptr %dy, ptr %t)
  ret void
}

define ptr @aug_kept(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %n = load i32, ptr @enzyme_nocache, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @square, i32 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %y, ptr %dy)
  ret ptr %t
}

define void @rev_kept(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %t) {
  %n = load i32, ptr @enzyme_nocache, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_reverse(ptr @square, i32 %n, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %y, ptr %dy, ptr %t)
  ret void
}

define i64 @size_plain() {
  %d = load i32, ptr @enzyme_dup, align 4
  %s = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @square, i32 %d, i32 %d)
  ret i64 %s
}

define i64 @size_kept() {
  %n = load i32, ptr @enzyme_nocache, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  %s = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @square, i32 %n, i32 %d, i32 %d)
  ret i64 %s
}
