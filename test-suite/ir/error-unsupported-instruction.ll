; An instruction without a derivative rule is a clear error naming it: here
; an atomic read-modify-write on memory with derivatives (shufflevector, the
; example this test had before, has a rule now: ir/rev-simd-masked-shuffle-reduce.ll).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare void @__enzyme_autodiff(ptr, ...)

define void @f(double %x, ptr %acc) {
  %old = atomicrmw fadd ptr %acc, double %x seq_cst
  ret void
}

define void @test(double %x, ptr %acc, ptr %dacc) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %acc, ptr %dacc)
  ret void
}

; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate an atomic operation on memory with derivatives
