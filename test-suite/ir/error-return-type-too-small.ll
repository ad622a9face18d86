; __enzyme_autodiff declared to return one double for a function with two
; active scalar arguments.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define double @test(double %x, double %y) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff is declared to return 'double', but the gradients of 'f' are 2 values (double, double); declare it to return that type (one value) or a struct with one field per value, in order
