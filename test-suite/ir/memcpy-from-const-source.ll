; memcpy from an enzyme_const source: the copied elements' adjoints stop at the
; copy, so the reverse pass only zeroes the destination's shadow.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %dst, ptr %src, i64 %n) {
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, i64 %n) {
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, i32 %c, ptr %s, i64 %n)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK:         call void @f.grad(ptr %d, ptr %s, i64 %n, ptr %dd)

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, i64 [[N:%[0-9]+]], ptr [[DDST:%[0-9]+]], ptr
; CHECK:         [[BYTES:%.*]] = shl i64 [[N]], 3
; CHECK-NOT:     enzyme.memcpy.adjoint
; CHECK:         call void @llvm.memset.p0.i64(ptr {{.*}}[[DDST]], i8 0, i64 [[BYTES]], i1 false)
; CHECK-NOT:     enzyme.memcpy.adjoint
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
