; A call to an external function with no definition and no derivative rule:
; the error names the function being differentiated and the callee, and says
; what to do (build it with -fenzyme, custom derivative, mark inactive).
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)
declare double @ext_model(double)

define double @f(double %x) {
  %y = call double @ext_model(double %x)
  %r = fmul double %y, %x
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate a call to 'ext_model': it has no definition in this module and no derivative rule; compile the file that defines it with -fenzyme and link with -fenzyme, or give it a custom derivative (__enzyme_register_gradient_NAME), or mark it inactive (__enzyme_inactivefn)
