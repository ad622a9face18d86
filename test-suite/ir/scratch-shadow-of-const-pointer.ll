; A pointer to enzyme_const memory stored into memory with a shadow (a local
; struct that also holds a pointer to duplicated memory, filled through a
; pointer to it and passed to a helper that reads through both fields)
; gets a scratch shadow there, not a null one: the helper reads
; derivatives through the field. A pointer loaded from memory with a
; shadow takes a scratch shadow too where the shadow loaded is null and the
; pointer is not (a field that copies the engine did not follow filled). The scratch shadow
; comes from the run-time (runtime/ScratchShadows.c), and the gradient
; brackets its sweep so that scratch shadows start zeroed in every call.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32
@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)

%pair = type { ptr, ptr }

; c[0] * x[0] * x[0], through the struct.
define internal double @use(ptr %p) noinline {
  %cp = load ptr, ptr %p, align 8
  %xf = getelementptr inbounds %pair, ptr %p, i64 0, i32 1
  %xp = load ptr, ptr %xf, align 8
  %c = load double, ptr %cp, align 8
  %x = load double, ptr %xp, align 8
  %cx = fmul double %c, %x
  %r = fmul double %cx, %x
  ret double %r
}

; Fills the pair that *%pp points to: through a pointer loaded first, which
; the summaries of what functions store do not follow.
define internal void @init(ptr %pp, ptr %c, ptr %x) noinline {
  %p = load ptr, ptr %pp, align 8
  store ptr %c, ptr %p, align 8
  %xf = getelementptr inbounds %pair, ptr %p, i64 0, i32 1
  store ptr %x, ptr %xf, align 8
  ret void
}

define double @f(ptr %c, ptr %x) {
  %s = alloca %pair, align 8
  %ps = alloca ptr, align 8
  store ptr %s, ptr %ps, align 8
  call void @init(ptr %ps, ptr %c, ptr %x)
  %r = call double @use(ptr %s)
  ret double %r
}

define double @test(ptr %c, ptr %x, ptr %dx) {
  %k = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %k, ptr %c, i32 %d, ptr %x, ptr %dx)
  ret double %r
}

; CHECK-LABEL: define internal void @init.aug(
; CHECK-SAME:    ptr [[PP:%[0-9]+]], ptr [[C:%[0-9]+]], ptr [[X:%[0-9]+]], ptr [[DPP:%[0-9]+]], ptr [[DX:%[0-9]+]]
; CHECK:         [[F:%.*]] = freeze ptr [[C]]
; CHECK:         [[DP0:%.*]] = load ptr, ptr [[DPP]]
; CHECK-NEXT:    [[DP:%.*]] = {{.*}}call ptr @__enzyme_rt_scratch_if_null(ptr [[DP0]], ptr %p, i32 0)
; CHECK:         [[SCRATCH:%.*]] = {{.*}}call ptr @__enzyme_rt_scratch_shadow(ptr [[F]], i32 0)
; CHECK-NEXT:    store ptr [[SCRATCH]], ptr [[DP]]
; CHECK:         store ptr [[DX]], ptr

; CHECK-LABEL: define internal void @f.grad(
; CHECK:         call void @__enzyme_rt_scratch_begin()
; CHECK:         call void @init.aug(
; CHECK:         call void @use.rev(
; CHECK:         call void @__enzyme_rt_scratch_end()
; CHECK-NEXT:    ret void
