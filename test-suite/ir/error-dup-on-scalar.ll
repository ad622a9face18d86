; enzyme_dup on a double parameter.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @test(double %x, double %dx) {
  %m = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x, double %dx)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: enzyme_dup needs a pointer parameter, but parameter 1 of 'f' (double) is not; pass scalars with enzyme_out or enzyme_const
