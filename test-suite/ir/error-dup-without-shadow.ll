; enzyme_dup on the last argument with no shadow pointer after it.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

define double @test(ptr %p) {
  %m = load i32, ptr @enzyme_dup
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %p)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: enzyme_dup for parameter 1 of 'f' ({{ptr|pointer}}) needs a shadow pointer after the value
