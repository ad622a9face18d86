; An indirect call whose argument carries a derivative: the callee is
; unknown, so it cannot be differentiated.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, ptr %fn) {
  %y = call double %fn(double %x)
  ret double %y
}

define double @test(double %x, ptr %fn) {
  %m = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %m, ptr %fn)
  ret double %g
}

; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate an indirect call whose arguments or result carry derivatives
