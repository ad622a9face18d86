; A marker the reverse mode does not support (enzyme_width is for vector
; forward mode).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_width = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @test(double %x) {
  %m = load i32, ptr @enzyme_width
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, i32 2, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: the marker 'enzyme_width' is not supported here
