; Copies that move no derivative though no access types all their bytes,
; in reverse mode on a GPU (where an untyped copy is a compile-time error):
; - @padded copies a struct of integers whose declared type leaves padding
;   between its fields (unoptimised code copies structs with memcpy, as
;   Thrust's kernels copy CUB's GridEvenShare): the padding holds no value.
;   Before, "cannot tell what the 32 bytes copied here hold".
; - @mixed: the same with a double among the fields, whose adjoint the
;   reverse copy moves back (the padding rule leaves floats alone). Its
;   source may be read by other threads: the adjoint is added back
;   atomically, in a loop whose back edge leaves from the block after the
;   branch on the address space (before, from the loop header: a broken
;   module).
; - @undefined copies seven bytes out of a local that nothing writes and
;   into one that nothing reads (what SROA leaves of a struct's padding at
;   -O0): such copies move nothing and go. Before, "cannot tell what the 7
;   bytes copied here hold".
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s --check-prefix=HELPER

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Window = type { i32, i64, i32, i64 }
%struct.Mixed = type { i32, double }

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @padded(ptr %dst, ptr %src) {
  %w = alloca %struct.Window, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %w, ptr %src, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %w, i64 32, i1 false)
  ret void
}

define void @mixed(ptr %dst, ptr %src) {
  %m = alloca %struct.Mixed, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %m, ptr %src, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %m, i64 16, i1 false)
  ret void
}

define void @undefined(ptr %dst, ptr %src) {
  %unwritten = alloca [7 x i8], align 1
  %unread = alloca [7 x i8], align 1
  %x = load double, ptr %src, align 8
  %y = fmul double %x, %x
  store double %y, ptr %dst, align 8
  %tail = getelementptr inbounds i8, ptr %dst, i64 9
  call void @llvm.memcpy.p0.p0.i64(ptr %tail, ptr %unwritten, i64 7, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %unread, ptr %tail, i64 7, i1 false)
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @padded, ptr %d, ptr %dd, ptr %s, ptr %ds)
  call void (ptr, ...) @__enzyme_autodiff(ptr @mixed, ptr %d, ptr %dd, ptr %s, ptr %ds)
  call void (ptr, ...) @__enzyme_autodiff(ptr @undefined, ptr %d, ptr %dd, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal void @padded.rev(
; CHECK-NOT: fadd
; CHECK: ret void

; CHECK-LABEL: define internal void @mixed.rev(
; CHECK: call void @enzyme.memcpy.adjoint.double(
; CHECK: call void @enzyme.memcpy.adjoint.atomic.double(
; CHECK: ret void

; CHECK-LABEL: define internal void @undefined.rev(
; CHECK-NOT: memcpy
; CHECK: fmul double
; CHECK-NOT: memcpy
; CHECK: ret void

; HELPER-LABEL: define internal void @enzyme.memcpy.adjoint.atomic.double(
; HELPER: loop:
; HELPER-NEXT: phi i64 [ 0, %entry ], [ %[[NEXT:[0-9]+]], %[[LATCH:[0-9]+]] ]
; HELPER: atomicrmw fadd
; HELPER: [[LATCH]]:
; HELPER-NEXT: %[[NEXT]] = add i64
