; A memmove of an array of structs of a pointer and a double, whose length
; is known at run time only (a std::vector of such structs growing or
; erasing an element): the program indexes the arrays as %struct.Term, so
; the copy moves record by record. The augmented function copies the
; pointers' shadows (enzyme.record.shadows.<stride>.<offset>k<kind>...:
; kind 3 is a pointer, 1 a double), the reverse function moves the doubles'
; adjoints back and clears them (enzyme.record.adjoints...); both visit the
; records in the order a memmove of overlapping ranges needs. Before, this
; was an error ("cannot differentiate a copy of memory holding both
; pointers and floating-point values whose size is not a compile-time
; constant").
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

%struct.Term = type { ptr, double }

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %dst, ptr %src, i64 %n) {
  %bytes = mul i64 %n, 16
  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  %last = sub i64 %n, 1
  %pp = getelementptr %struct.Term, ptr %dst, i64 %last, i32 0
  %p = load ptr, ptr %pp
  %wp = getelementptr %struct.Term, ptr %dst, i64 %last, i32 1
  %w = load double, ptr %wp
  %x = load double, ptr %p
  %r = fmul double %w, %x
  ret double %r
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @f.aug(
; CHECK:         call void @llvm.memmove.p0.p0.i64(
; CHECK:         call void @enzyme.record.shadows.16.0k3.8k1(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}})

; CHECK-LABEL: define internal void @f.rev(
; CHECK:         call void @enzyme.record.adjoints.16.0k3.8k1(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}})

; CHECK-LABEL: define internal void @enzyme.record.shadows.16.0k3.8k1(
; CHECK-SAME:    ptr [[DST:%[0-9]+]], ptr [[SRC:%[0-9]+]], i64 [[LEN:%[0-9]+]])
; CHECK:         [[DOWN:%[0-9]+]] = icmp ult i64
; CHECK:         [[UP:%[0-9]+]] = xor i1 [[DOWN]], true
; CHECK:       loop:
; CHECK:         select i1 [[UP]]
; CHECK:         [[D:%[0-9]+]] = getelementptr inbounds i8, ptr [[DST]], i64
; CHECK:         [[S:%[0-9]+]] = getelementptr inbounds i8, ptr [[SRC]], i64
; CHECK:         [[SF:%[0-9]+]] = getelementptr inbounds i8, ptr [[S]], i64 0
; CHECK:         [[P:%[0-9]+]] = load ptr, ptr [[SF]]
; CHECK:         [[DF:%[0-9]+]] = getelementptr inbounds i8, ptr [[D]], i64 0
; CHECK:         store ptr [[P]], ptr [[DF]]
; CHECK-NOT:     double
; CHECK:         ret void

; CHECK-LABEL: define internal void @enzyme.record.adjoints.16.0k3.8k1(
; CHECK-SAME:    ptr [[DST:%[0-9]+]], ptr [[SRC:%[0-9]+]], i64 [[LEN:%[0-9]+]])
; CHECK:         [[DOWN:%[0-9]+]] = icmp ult i64
; CHECK:       loop:
; CHECK:         select i1 [[DOWN]]
; CHECK:         [[D:%[0-9]+]] = getelementptr inbounds i8, ptr [[DST]], i64
; CHECK:         [[S:%[0-9]+]] = getelementptr inbounds i8, ptr [[SRC]], i64
; CHECK:         [[DF:%[0-9]+]] = getelementptr inbounds i8, ptr [[D]], i64 8
; CHECK:         [[A:%[0-9]+]] = load double, ptr [[DF]]
; CHECK:         store double 0.000000e+00, ptr [[DF]]
; CHECK:         [[SF:%[0-9]+]] = getelementptr inbounds i8, ptr [[S]], i64 8
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[SF]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[A]]
; CHECK:         store double [[NEW]], ptr [[SF]]
; CHECK-NOT:     load ptr
; CHECK:         ret void
