; memcpy between two duplicated buffers: the reverse pass calls the helper
; enzyme.memcpy.adjoint.double on the shadows, which adds each element's
; adjoint from the destination's shadow to the source's and clears the
; destination's. The length is recomputed from n. Nothing in f says what
; the bytes are: the arrays of doubles the request passes do. A memmove's
; ranges may overlap: a copy to lower addresses (dst < src) has its
; adjoints moved from the last element down, so that none moved into the
; source is moved again as the destination's.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr %dst, ptr %src, i64 %n) {
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  ret void
}

define void @test(i64 %n) {
  %d = alloca [8 x double]
  %dd = alloca [8 x double]
  %s = alloca [8 x double]
  %ds = alloca [8 x double]
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK:         call void @f.grad(ptr %d, ptr %s, i64 %n, ptr %dd, ptr %ds)

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, i64 [[N:%[0-9]+]], ptr [[DDST:%[0-9]+]], ptr [[DSRC:%[0-9]+]], ptr
; CHECK:         [[BYTES:%.*]] = shl i64 [[N]], 3
; CHECK:         call void @enzyme.memcpy.adjoint.double(ptr [[DDST]], ptr [[DSRC]], i64 [[BYTES]])
; CHECK:         ret void

; CHECK-LABEL: define internal void @enzyme.memcpy.adjoint.double(
; CHECK-SAME:    ptr [[DST:%[0-9]+]], ptr [[SRC:%[0-9]+]], i64 [[LEN:%[0-9]+]])
; CHECK:         [[COUNT:%[0-9]+]] = udiv i64 [[LEN]], 8
; CHECK:         [[DI:%[0-9]+]] = ptrtoint ptr [[DST]] to i64
; CHECK:         [[SI:%[0-9]+]] = ptrtoint ptr [[SRC]] to i64
; CHECK:         [[DOWN:%[0-9]+]] = icmp ult i64 [[DI]], [[SI]]
; CHECK:       loop:
; CHECK:         [[K:%[0-9]+]] = phi i64
; CHECK:         [[LAST:%[0-9]+]] = sub i64 [[COUNT]], 1
; CHECK:         [[BACK:%[0-9]+]] = sub i64 [[LAST]], [[K]]
; CHECK:         [[I:%[0-9]+]] = select i1 [[DOWN]], i64 [[BACK]], i64 [[K]]
; CHECK:         [[AT:%[0-9]+]] = mul i64 [[I]], 8
; CHECK:         [[PD:%[0-9]+]] = getelementptr inbounds i8, ptr [[DST]], i64 [[AT]]
; CHECK:         [[PS:%[0-9]+]] = getelementptr inbounds i8, ptr [[SRC]], i64 [[AT]]
; CHECK:         [[D:%[0-9]+]] = load double, ptr [[PD]]
; CHECK:         store double 0.000000e+00, ptr [[PD]]
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[PS]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[OLD]], [[D]]
; CHECK:         store double [[NEW]], ptr [[PS]]
; CHECK-LABEL: {{^}}define
