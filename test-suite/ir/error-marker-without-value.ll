; An activity marker as the last argument, with no value after it.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @test() {
  %m = load i32, ptr @enzyme_const
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: enzyme_const must be followed by the value for parameter 1 of 'f' (double)
