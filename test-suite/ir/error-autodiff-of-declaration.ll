; __enzyme_autodiff of a function that is only declared: the error should name
; it once and give the remedies.
;
; The message names the function once (an earlier engine repeated the
; prefix: "cannot differentiate 'ext_model': cannot differentiate 'ext_model':
; it has no definition ..."); {{[^']*}} keeps a repeated prefix from matching.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @ext_model(double)

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @ext_model, double %x)
  ret double %g
}

; CHECK: error: {{[^']*}}cannot differentiate 'ext_model': it has no definition in this module{{( and no derivative rule)?}}; compile the file that defines it with -fenzyme and link with -fenzyme, or give it a custom derivative (__enzyme_register_gradient_NAME), or mark it inactive (__enzyme_inactivefn)
