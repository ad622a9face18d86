; A pointer passed for a double parameter (the default activity of a pointer
; is enzyme_dup, but the parameter is a double).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @test(ptr %p) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %p)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: the argument for parameter 1 of 'f' (double) is a 'pointer'
