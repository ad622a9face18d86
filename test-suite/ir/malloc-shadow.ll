; An active heap allocation gets a zeroed shadow: the augmented forward pass
; calls calloc next to malloc and keeps the shadow for the reverse pass, which
; moves the adjoint out of the shadow memory and frees it where the reverse of
; the allocation is (the primal free stays in the forward pass). The volatile
; accesses keep the store/load through %t from being folded away.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s --check-prefix=DECL

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.sin.f64(double)

; t = malloc; *t = x[0]^2; w = *t; free(t); sin(w)
define double @f(ptr %x) {
  %t = call ptr @malloc(i64 8)
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  store volatile double %sq, ptr %t
  %w = load volatile double, ptr %t
  call void @free(ptr %t)
  %r = call double @llvm.sin.f64(double %w)
  ret double %r
}

define double @test(ptr %x, ptr %dx) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret double %g
}

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %t = tail call ptr @malloc(i64 8)
; CHECK:         %shadow.mem = tail call {{.*}}ptr @calloc(i64 1, i64 8)
; CHECK:         tail call void @free(ptr {{.*}}%t)
; CHECK-NOT:     call void @free(ptr {{.*}}%shadow.mem)
; CHECK:         store ptr %shadow.mem, ptr
; CHECK-NOT:     call void @free(ptr {{.*}}%shadow.mem)
; CHECK:         ret double

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr [[DX:%[0-9]+]], double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:         load ptr, ptr [[TAPE]]
; CHECK:         [[SH:%[0-9]+]] = load ptr, ptr
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[SH]]
; CHECK:         [[DT:%[0-9]+]] = fadd double [[OLD]], {{%[0-9]+}}
; CHECK:         store double -0.000000e+00, ptr [[SH]]
; CHECK:         fmul double {{%[0-9]+}}, [[DT]]
; CHECK:         store double {{%[0-9]+}}, ptr [[DX]]
; CHECK:         call void @free(ptr {{.*}}[[SH]])
; CHECK:         ret void
; CHECK-LABEL: {{^}}define

; The C library functions the engine calls carry LLVM's library attributes,
; so a shadow allocation is known to be fresh memory (no runtime overlap
; checks against the caller's arrays) and free captures nothing.
; DECL-DAG: declare noalias noundef ptr @calloc(i64 noundef, i64 noundef)
; DECL-DAG: declare void @free(ptr allocptr nocapture noundef)
