; A callee with scalable vectors (llvm-stress seed 144, reduced): LLVM 19's
; simplifycfg, which the engine runs to prepare a function, aborts on it
; ("Invalid size request on a scalable vector"). The engine refuses such
; functions with a clean error before preparing them.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="LLVM ERROR"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @autogen_SD144(ptr %0, i1 %b57, <vscale x 2 x i64> %I19, i1 %b73) {
BB:
  br label %CF78

CF78:
  br i1 %b57, label %CF78, label %CF83

CF83:
  %B32 = mul <vscale x 2 x i64> %I19, %I19
  %br73 = xor i1 true, %b73
  br i1 %br73, label %CF78, label %CF82

CF82:
  br label %CF78

CF79:
  %Sl74 = select <vscale x 2 x i1> zeroinitializer, <vscale x 2 x i64> zeroinitializer, <vscale x 2 x i64> %B32
  ret void
}

define double @wrap(ptr %p0, ptr %p1, ptr %p2) {
  call void @autogen_SD144(ptr %p0, i1 false, <vscale x 2 x i64> zeroinitializer, i1 false)
  ret double 0.000000e+00
}

declare void @__enzyme_autodiff(ptr, ...)

define void @caller() {
  call void (ptr, ...) @__enzyme_autodiff(ptr @wrap, ptr null, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

; CHECK: error: {{.*}}cannot differentiate 'wrap': 'wrap' uses scalable vectors, which the engine does not support
