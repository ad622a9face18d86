; Gradients in GPU device code keep their tape in the thread's local memory
; when its size is fixed at compile time (no values recorded in loops or
; recursion): the device heap is small and slow. Any other tape starts in a
; local buffer too, and grows onto the device heap through malloc, memcpy
; and free (device code has no realloc, nor calloc, and no thread-local
; storage to keep it in); the local buffer is never freed, and an exhausted
; heap stops the kernel with a message.
; RUN: %opt_enzyme -passes=enzyme -enzyme-inline-device-derivatives=false -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=FIXED < %t.ll
; RUN: FileCheck %s --check-prefix=HEAP < %t.ll
; RUN: FileCheck %s --check-prefix=GROW < %t.ll
; RUN: FileCheck %s --check-prefix=BOUNDED < %t.ll

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare double @__enzyme_autodiff(ptr, ...)

; x[0] is overwritten after it is read: the reverse pass needs its old value.
define void @square_in_place(ptr %x) {
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  store double %sq, ptr %x
  ret void
}

; The callee's values live in the caller's buffer, at offsets fixed at
; compile time.
define void @square_twice(ptr %x) {
  call void @square_in_place_noinline(ptr %x)
  call void @square_in_place_noinline(ptr %x)
  ret void
}

define void @square_in_place_noinline(ptr %x) noinline {
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  store double %sq, ptr %x
  ret void
}

define void @power(ptr %x, i64 %n) {
entry:
  %v = load double, ptr %x
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 1.0, %entry ], [ %s.next, %loop ]
  %s.next = fmul double %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  store double %s.next, ptr %x
  ret void
}

; Eight iterations, each recording the running product.
define void @power8(ptr %x) {
entry:
  %v = load double, ptr %x
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 1.0, %entry ], [ %s.next, %loop ]
  %s.next = fmul double %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 8
  br i1 %done, label %exit, label %loop

exit:
  store double %s.next, ptr %x
  ret void
}

define void @bounded(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @power8, ptr %x, ptr %dx)
  ret void
}

define void @fixed(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @square_in_place, ptr %x, ptr %dx)
  ret void
}

define void @fixed_with_callees(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @square_twice, ptr %x, ptr %dx)
  ret void
}

define void @growing(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @power, ptr %x, ptr %dx, i64 %n)
  ret void
}

; GROW-LABEL: define internal void @enzyme.tape.grow(
; GROW:         [[OLD:%.*]] = load ptr, ptr
; GROW:         [[NEW:%.*]] = call ptr @malloc(i64
; GROW:         icmp eq ptr [[NEW]], null
; GROW:       heap.exhausted:
; GROW-NEXT:    call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @enzyme.device.message to ptr), ptr null)
; GROW-NEXT:    call void @llvm.trap()
; GROW:       grown:
; GROW:         call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[NEW]], ptr align 8 [[OLD]]
; GROW:         [[LOCAL:%.*]] = call i1 @llvm.nvvm.isspacep.local(ptr [[OLD]])
; GROW:         [[FREED:%.*]] = select i1 [[LOCAL]], ptr null, ptr [[OLD]]
; GROW:         call void @free(ptr [[FREED]])
; GROW-NOT:   realloc
; GROW-NOT:   calloc

; FIXED-LABEL: define internal void @square_in_place.grad(
; FIXED-NOT:     @malloc
; FIXED-NOT:     @enzyme.tape.grow
; FIXED-NOT:     @free
; FIXED:         ret void

; FIXED-LABEL: define internal void @square_twice.grad(
; FIXED:         %tape = alloca [16 x i8], align 16
; FIXED:         call void @square_in_place_noinline.aug(ptr %0, ptr %1, ptr nonnull %tape)
; FIXED:         [[SECOND:%.*]] = getelementptr inbounds i8, ptr %tape, i64 8
; FIXED:         call void @square_in_place_noinline.aug(ptr %0, ptr %1, ptr nonnull [[SECOND]])
; FIXED-NOT:     call {{.*}}@malloc
; FIXED-NOT:     call {{.*}}@free
; FIXED:         ret void

; HEAP-LABEL: define internal void @power.grad(
; HEAP:         %tape = alloca %enzyme.tape
; HEAP:         %tape.local = alloca [512 x i8], align 16
; HEAP-NOT:     threadlocal
; HEAP:         call i1 @llvm.nvvm.isspacep.local(
; HEAP:         call void @free(

; A loop with a constant trip count records at most 8 values (and the exit
; one more): the local buffer holds them all, so the heap is never used.
; BOUNDED-LABEL: define internal void @power8.grad(
; BOUNDED:         %tape.local = alloca [72 x i8], align 16
