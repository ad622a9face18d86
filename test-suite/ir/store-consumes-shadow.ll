; A store through a duplicated pointer: the reverse pass reads the adjoint of
; the stored-to memory from its shadow, zeroes the shadow (the old contents
; were overwritten), and passes the adjoint on to the stored value; here
; *out = sin(*x), so dx += cos(x) * dout. A store of a constant only zeroes
; the shadow.
; RUN: %opt_enzyme -passes=enzyme -S %s -o %t
; RUN: FileCheck %s < %t
; RUN: FileCheck %s --check-prefix=CONST < %t

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define void @f(ptr %x, ptr %out) {
  %v = load double, ptr %x
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %out
  ret void
}

define void @g(ptr %out) {
  store double 1.0, ptr %out
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %out, ptr %dout)
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %out, ptr %dout)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK-DAG:     call void @f.grad(ptr %x, ptr %out, ptr %dx, ptr %dout)
; CHECK-DAG:     call void @g.grad(ptr %out, ptr %dout)

; CONST-LABEL: define internal void @g.rev(
; CONST-SAME:    ptr {{%[0-9]+}}, ptr [[DOUT:%[0-9]+]], ptr
; CONST-NEXT:  {{.*}}:
; CONST-NEXT:    store double 0.000000e+00, ptr [[DOUT]]
; CONST-NEXT:    ret void
; CONST-LABEL: {{^}}define

; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr {{%[0-9]+}}, ptr {{%[0-9]+}}, ptr [[DX:%[0-9]+]], ptr [[DOUT:%[0-9]+]], ptr
; CHECK:         [[V:%[0-9]+]] = load double, ptr
; CHECK:         [[D:%[0-9]+]] = load double, ptr [[DOUT]]
; CHECK:         store double 0.000000e+00, ptr [[DOUT]]
; CHECK:         [[COS:%[0-9]+]] = tail call double @llvm.cos.f64(double [[V]])
; CHECK:         [[T:%[0-9]+]] = fmul double [[D]], [[COS]]
; CHECK:         [[OLD:%[0-9]+]] = load double, ptr [[DX]]
; CHECK:         [[NEW:%[0-9]+]] = fadd double [[T]], [[OLD]]
; CHECK:         store double [[NEW]], ptr [[DX]]
; CHECK:         ret void
; CHECK-LABEL: {{^}}define
