; Where the type analysis of copied memory finds what a copy moves when the
; copying function itself says nothing (docs/reverse-mode.md, "Memory copied
; without a type"); in each case the reverse pass moves double adjoints and
; no run-time stop is emitted:
;  - @from_request: the request passes typed locals ([4 x double]);
;  - @member: a member address, `getelementptr %pair, ptr %p, 0, 1` (the
;    double of {i32, double}), as unoptimised code computes it;
;  - @through_move: the source comes through a call that returns its
;    argument unchanged (std::move at -O0), from a local of type double;
;  - @relocate: a loop copies element by element into a block that is
;    indexed as an array of double elsewhere;
;  - @annotated: the caller says what its buffers hold with
;    __enzyme_double(ptr, bytes), which the compiler then removes.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%pair = type { i32, double }

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare noalias ptr @malloc(i64)
declare void @free(ptr)

define void @from_request(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 32, i1 false)
  ret void
}

define void @copy8(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 8, i1 false)
  ret void
}

define void @member(ptr %p, ptr %q) {
  %pd = getelementptr inbounds %pair, ptr %p, i32 0, i32 1
  %qd = getelementptr inbounds %pair, ptr %q, i32 0, i32 1
  call void @copy8(ptr %pd, ptr %qd)
  ret void
}

define void @copy8_moved(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 8, i1 false)
  ret void
}

define ptr @move(ptr %x) {
  ret ptr %x
}

define double @through_move(double %x) {
  %a = alloca double
  %b = alloca double
  store double %x, ptr %a
  %m = call ptr @move(ptr %a)
  call void @copy8_moved(ptr %b, ptr %m)
  %r = load double, ptr %b
  ret double %r
}

define double @relocate(ptr %src, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %blk = call ptr @malloc(i64 %bytes)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %to = phi ptr [ %blk, %entry ], [ %to.next, %loop ]
  %from = phi ptr [ %src, %entry ], [ %from.next, %loop ]
  call void @llvm.memcpy.p0.p0.i64(ptr %to, ptr %from, i64 8, i1 false)
  %to.next = getelementptr inbounds i8, ptr %to, i64 8
  %from.next = getelementptr inbounds i8, ptr %from, i64 8
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %sum
sum:
  %last = add i64 %n, -1
  %at = getelementptr inbounds double, ptr %blk, i64 %last
  %v = load double, ptr %at
  call void @free(ptr %blk)
  ret double %v
}

define void @annotated(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 24, i1 false)
  ret void
}

declare void @__enzyme_double(ptr, i64)

define void @test(ptr %p, ptr %dp, ptr %q, ptr %dq, ptr %s, ptr %ds, i64 %n) {
  %d = alloca [4 x double]
  %dd = alloca [4 x double]
  %s4 = alloca [4 x double]
  %ds4 = alloca [4 x double]
  call void (ptr, ...) @__enzyme_autodiff(ptr @from_request, ptr %d, ptr %dd, ptr %s4, ptr %ds4)
  call void (ptr, ...) @__enzyme_autodiff(ptr @member, ptr %p, ptr %dp, ptr %q, ptr %dq)
  call void (ptr, ...) @__enzyme_autodiff(ptr @through_move, double 1.0)
  call void (ptr, ...) @__enzyme_autodiff(ptr @relocate, ptr %s, ptr %ds, i64 %n)
  %ba = alloca [24 x i8]
  %dba = alloca [24 x i8]
  %bb = alloca [24 x i8]
  %dbb = alloca [24 x i8]
  call void @__enzyme_double(ptr %ba, i64 24)
  call void @__enzyme_double(ptr %bb, i64 24)
  call void (ptr, ...) @__enzyme_autodiff(ptr @annotated, ptr %ba, ptr %dba, ptr %bb, ptr %dbb)
  ret void
}

; CHECK-NOT: __enzyme_rt_untyped_copy(
; CHECK-NOT: call void @__enzyme_double
; CHECK-LABEL: define internal void @from_request.rev(
; CHECK:         call void @enzyme.memcpy.adjoint.double(
; CHECK-LABEL: define internal void @copy8.rev(
; CHECK:         call void @enzyme.memcpy.adjoint.double(
; CHECK-LABEL: define internal void @copy8_moved.rev(
; CHECK:         call void @enzyme.memcpy.adjoint.double(
; CHECK-LABEL: define internal {{.*}} @relocate.rev(
; CHECK:         call void @enzyme.memcpy.adjoint.double(
; CHECK-LABEL: define internal void @annotated.rev(
; CHECK:         call void @enzyme.memcpy.adjoint.double(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 24)
