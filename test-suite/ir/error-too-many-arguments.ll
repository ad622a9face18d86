; More values than the function has parameters.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @test(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: too many arguments: 'f' has 1 parameter{{s?}}
