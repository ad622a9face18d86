; A struct copy that nothing else describes (no other access of the bytes,
; no typed object): clang's !tbaa.struct on the memcpy names its fields, a
; double at 0 and a pointer at 8. The augmented forward pass copies the
; pointer's shadow, and the reverse pass moves the double's adjoint only.
; Without the tag the copy was taken for two doubles: the pointer's shadow
; was not copied and its bits were "moved" as an adjoint.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %dst, ptr align 8 %src, i64 16, i1 false), !tbaa.struct !0
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds)
  ret void
}

!0 = !{i64 0, i64 8, !1, i64 8, i64 8, !5}
!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"any pointer", !3, i64 0}

; CHECK-LABEL: define internal void @f.grad(
; CHECK-SAME:    ptr [[D:%[0-9]+]], ptr [[S:%[0-9]+]], ptr [[DD:%[0-9]+]], ptr [[DS:%[0-9]+]])
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}[[D]], ptr {{.*}}[[S]], i64 16
; The pointer's shadow travels with the pointer.
; CHECK-DAG:     [[SP:%.*]] = getelementptr inbounds i8, ptr [[DS]], i64 8
; CHECK-DAG:     [[DP:%.*]] = getelementptr inbounds i8, ptr [[DD]], i64 8
; CHECK:         [[P:%.*]] = load ptr, ptr [[SP]]
; CHECK:         store ptr [[P]], ptr [[DP]]
; The double's adjoint moves from the destination back to the source.
; CHECK:         [[A:%.*]] = load double, ptr [[DD]]
; CHECK:         store double 0.000000e+00, ptr [[DD]]
; CHECK:         [[OLD:%.*]] = load double, ptr [[DS]]
; CHECK:         fadd double {{.*}}[[A]]
; CHECK-NOT:     load double, ptr [[DP]]
; CHECK:         ret void
