; An instruction without a derivative rule is a clear error naming it: here
; an atomic maximum on memory with derivatives (shufflevector and atomic
; fadd, the examples this test had before, have rules now:
; ir/rev-simd-masked-shuffle-reduce.ll, ir/atomic-fadd.ll).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare void @__enzyme_autodiff(ptr, ...)

define void @f(double %x, ptr %acc) {
  %old = atomicrmw fmax ptr %acc, double %x seq_cst
  ret void
}

define void @test(double %x, ptr %acc, ptr %dacc) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %acc, ptr %dacc)
  ret void
}

; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate an atomic operation on memory with derivatives
