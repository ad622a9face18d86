; An active value stored to a global, which has no shadow.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@last = global double 0.0

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %y = fmul double %x, %x
  store double %y, ptr @last
  ret double %y
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}cannot differentiate 'f': a value that carries a derivative is stored to the global 'last', which has no shadow; pass the data through an argument with enzyme_dup, give the global a shadow (enzyme_shadow, or enzyme_context on the request), or mark the global inactive
