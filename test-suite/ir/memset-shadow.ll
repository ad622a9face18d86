; memset of a duplicated buffer overwrites it, so the reverse pass clears the
; corresponding shadow bytes with a memset of the shadow.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @f(ptr %p, i64 %n) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  ret void
}

define void @test(ptr %p, ptr %dp, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, i64 %n)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK:         call void @f.grad(ptr %p, i64 %n, ptr %dp)

; CHECK-LABEL: define internal void @f.aug(
; CHECK:         call void @llvm.memset.p0.i64(ptr {{.*}}, i8 0, i64 {{%[0-9]+}}, i1 false)

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, i64 [[N:%[0-9]+]], ptr [[DP:%[0-9]+]], ptr
; CHECK:         call void @llvm.memset.p0.i64(ptr {{.*}}[[DP]], i8 0, i64 [[N]], i1 false)
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
