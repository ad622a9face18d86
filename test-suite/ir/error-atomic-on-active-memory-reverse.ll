; Reverse mode: an atomic compare-exchange on memory with derivatives (what
; std::atomic_ref<double>::fetch_add becomes at -O2: a loop of cmpxchg on
; the double's bits) is a located error, as in forward mode. The reverse
; pass dropped it silently before (a zero derivative for %x).
; (An integer atomic add next to active data, a shared_ptr's reference
; count, is no error: runtime/cpp-smart-pointers.cpp.)
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare void @__enzyme_autodiff(ptr, ...)

define void @exchange(double %x, ptr %acc) {
  %bits = bitcast double %x to i64
  %pair = cmpxchg ptr %acc, i64 0, i64 %bits seq_cst seq_cst
  ret void
}

define void @test(double %x, ptr %acc, ptr %dacc) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @exchange, double %x, ptr %acc, ptr %dacc)
  ret void
}

; CHECK: error: {{.*}}cannot differentiate 'exchange': cannot differentiate an atomic operation on memory with derivatives
