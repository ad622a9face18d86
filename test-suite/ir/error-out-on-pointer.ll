; enzyme_out on a pointer parameter.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

define double @test(ptr %p) {
  %m = load i32, ptr @enzyme_out
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %p)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: enzyme_out needs a floating-point parameter, but parameter 1 of 'f' ({{ptr|pointer}}) is not; pass pointers with enzyme_dup or enzyme_const
