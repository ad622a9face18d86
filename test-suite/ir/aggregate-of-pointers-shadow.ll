; A small struct of pointers returned in registers ({ptr, ptr}, an Eigen
; Product or a begin/end pair) carries shadows in its pointer fields: the
; augmented callee returns the shadow struct beside the primal one, built
; with the same insertvalues over the shadow pointers, and the caller takes
; its fields' shadows with the same extractvalues. An address stored as an
; integer (ptrtoint) into memory with a shadow has its shadow stored there
; too, as an integer, whatever its TBAA tag says.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

define internal { ptr, ptr } @span(ptr %p) noinline {
  %end = getelementptr inbounds double, ptr %p, i64 1
  %a = insertvalue { ptr, ptr } poison, ptr %p, 0
  %b = insertvalue { ptr, ptr } %a, ptr %end, 1
  ret { ptr, ptr } %b
}

define internal void @keep(ptr %slot, ptr %p) noinline {
  %bits = ptrtoint ptr %p to i64
  store i64 %bits, ptr %slot, align 8, !tbaa !0
  ret void
}

; x[0] * x[1], through the pair and through an address kept as an integer.
define double @f(ptr %x) {
  %slot = alloca i64, align 8
  %s = call { ptr, ptr } @span(ptr %x)
  %first = extractvalue { ptr, ptr } %s, 0
  call void @keep(ptr %slot, ptr %first)
  %bits = load i64, ptr %slot, align 8, !tbaa !0
  %kept = inttoptr i64 %bits to ptr
  %second = extractvalue { ptr, ptr } %s, 1
  %a = load double, ptr %kept, align 8
  %b = load double, ptr %second, align 8
  %r = fmul double %a, %b
  ret double %r
}

define void @test(ptr %x, ptr %dx) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}

!0 = !{!1, !1, i64 0}
!1 = !{!"long", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         [[S:%.*]] = {{(tail )?}}call { { ptr, ptr }, { ptr, ptr } } @span.aug(
; CHECK:         [[DS:%.*]] = extractvalue { { ptr, ptr }, { ptr, ptr } } [[S]], 1
; CHECK:         [[DFIRST:%.*]] = extractvalue { ptr, ptr } [[DS]], 0
; CHECK:         call void @keep.aug(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr [[DFIRST]],
; CHECK:         [[DBITS:%.*]] = load i64, ptr %shadow.local
; CHECK:         extractvalue { ptr, ptr } [[DS]], 1
; CHECK:         inttoptr i64 [[DBITS]] to ptr

; CHECK-LABEL: define internal { { ptr, ptr }, { ptr, ptr } } @span.aug(
; CHECK-SAME:    ptr [[P:%[0-9]+]], ptr [[DP:%[0-9]+]], ptr
; CHECK-DAG:     [[END:%.*]] = getelementptr inbounds i8, ptr [[P]], i64 8
; CHECK-DAG:     [[DEND:%.*]] = getelementptr inbounds i8, ptr [[DP]], i64 8
; CHECK-DAG:     [[A:%.*]] = insertvalue { ptr, ptr } poison, ptr [[P]], 0
; CHECK-DAG:     [[DA:%.*]] = insertvalue { ptr, ptr } {{poison|zeroinitializer}}, ptr [[DP]], 0
; CHECK-DAG:     [[B:%.*]] = insertvalue { ptr, ptr } [[A]], ptr [[END]], 1
; CHECK-DAG:     [[DB:%.*]] = insertvalue { ptr, ptr } [[DA]], ptr [[DEND]], 1
; CHECK:         [[R:%.*]] = insertvalue { { ptr, ptr }, { ptr, ptr } } {{.*}}, { ptr, ptr } [[B]], 0
; CHECK:         [[R2:%.*]] = insertvalue { { ptr, ptr }, { ptr, ptr } } [[R]], { ptr, ptr } [[DB]], 1
; CHECK:         ret { { ptr, ptr }, { ptr, ptr } } [[R2]]

; CHECK-LABEL: define internal void @keep.aug(
; CHECK-SAME:    ptr [[SLOT:%[0-9]+]], ptr [[Q:%[0-9]+]], ptr [[DSLOT:%[0-9]+]], ptr [[DQ:%[0-9]+]], ptr
; CHECK:         [[BITS:%.*]] = ptrtoint ptr [[Q]] to i64
; CHECK:         store i64 [[BITS]], ptr [[SLOT]]
; CHECK:         [[DBITS:%.*]] = ptrtoint ptr [[DQ]] to i64
; CHECK:         store i64 [[DBITS]], ptr [[DSLOT]]
