; Differentiating a variadic function is refused.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ...) {
  ret double %x
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: cannot differentiate the variadic function 'f'
