; A forward request that fails (a call to a variadic function in @bad)
; after it built the dispatcher of a call through a pointer that one of its
; targets (twice) calls through again: the request is rolled back, each
; generated function erased once, and its error reported (rolling back used
; to take the dispatcher twice and crash).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s --implicit-check-not='Stack dump'

; CHECK: error: {{.*}}cannot differentiate 'g': cannot differentiate a call to the variadic function 'vsum'

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

define dso_local double @vsum(i32 noundef %n, ...) {
  ret double 0.000000e+00
}

define dso_local void @bad(ptr noundef %p) {
  %x = load double, ptr %p, align 8
  %y = call double (i32, ...) @vsum(i32 noundef 1, double noundef %x)
  store double %y, ptr %p, align 8
  ret void
}

define dso_local void @g(ptr noundef %fn, ptr noundef %p) {
  call void %fn(ptr noundef %p)
  call void @bad(ptr noundef %p)
  ret void
}

define dso_local void @tangent(ptr noundef %fn, ptr noundef %p, ptr noundef %dp) {
  %c = load i32, ptr @enzyme_const, align 4
  %d = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @g, i32 noundef %c, ptr noundef %fn, i32 noundef %d, ptr noundef %p, ptr noundef %dp)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...)
