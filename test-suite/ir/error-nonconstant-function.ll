; The function to differentiate is a run-time value (a parameter of the
; caller, which has no callers to specialise it): error at the request.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @test(ptr %fn, double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %x)
  ret double %g
}

; CHECK: error: {{.*}}__enzyme_autodiff: the function to differentiate must be known at compile time; pass the function itself (e.g. (void*)f), not a pointer computed at run time
