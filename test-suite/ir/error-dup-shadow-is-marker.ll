; enzyme_dup followed by the value and then another marker instead of the
; shadow pointer.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32
@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p, double %x) {
  %v = load double, ptr %p
  %r = fmul double %v, %x
  ret double %r
}

define double @test(ptr %p, double %x) {
  %m = load i32, ptr @enzyme_dup
  %o = load i32, ptr @enzyme_out
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, ptr %p, i32 %o, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: enzyme_dup for parameter 1 of 'f' ({{ptr|pointer}}) needs a shadow pointer after the value
