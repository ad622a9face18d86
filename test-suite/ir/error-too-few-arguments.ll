; Fewer values than the function has parameters.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: too few arguments: no value for parameter 2 of 'f' (double)
