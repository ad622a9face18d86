; The shadow of a local or a block aligned beyond malloc's 16 bytes (a
; 32-byte AVX packet kept in memory, operator new with align_val_t) is
; aligned as the primal is: the shadow accesses copy the primal's alignment
; (vmovapd), which calloc's 16-byte blocks broke. The local's comes from
; aligned_alloc; the block's from the same aligned operator new, and the
; matching aligned delete frees it.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare void @_ZdlPvSt11align_val_t(ptr, i64)

; Doubles a packet in place (kept out of line, as UBSan keeps Eigen's
; packet helpers).
define internal void @twice(ptr %p) noinline {
  %v = load <4 x double>, ptr %p, align 32
  %d = fadd <4 x double> %v, %v
  store <4 x double> %d, ptr %p, align 32
  ret void
}

define double @f(double %x) {
  %packet = alloca <4 x double>, align 32
  %v = insertelement <4 x double> zeroinitializer, double %x, i64 0
  store <4 x double> %v, ptr %packet, align 32
  call void @twice(ptr %packet)
  %heap = call ptr @_ZnwmSt11align_val_t(i64 32, i64 64)
  %w = load <4 x double>, ptr %packet, align 32
  store <4 x double> %w, ptr %heap, align 64
  %back = load <4 x double>, ptr %heap, align 64
  %e = extractelement <4 x double> %back, i64 0
  %r = fmul double %e, %e
  call void @_ZdlPvSt11align_val_t(ptr %heap, i64 64)
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal {{.*}} @f.grad(
; The local (align 32) gets its 64-byte residue block; the block from
; operator new(64, align 64) an aligned shadow.
; CHECK:         call ptr @aligned_alloc(i64 64, i64 128)
; CHECK:         [[SHADOW:%.*]] = call {{.*}}ptr @_ZnwmSt11align_val_t(i64 32, i64 64)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr {{.*}}[[SHADOW]], i8 0, i64 32
; CHECK-NOT:     @calloc
; CHECK:         call void @_ZdlPvSt11align_val_t(ptr {{.*}}, i64 64)
; CHECK:         ret
