; Vector reverse mode (enzyme_width N > 1) is refused clearly until it exists
; (forward mode has it: vector-fwd-tangents-once.ll).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_width = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @test(double %x) {
  %m = load i32, ptr @enzyme_width
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, i32 2, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: vector reverse mode ('enzyme_width, 2') is not supported yet
