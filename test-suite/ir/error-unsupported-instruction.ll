; An active vector shufflevector has no derivative rule yet: the error names
; the instruction.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %v = insertelement <2 x double> undef, double %x, i32 0
  %s = shufflevector <2 x double> %v, <2 x double> %v, <2 x i32> <i32 1, i32 0>
  %w = fmul <2 x double> %s, %v
  %e = extractelement <2 x double> %w, i32 0
  ret double %e
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK: error: {{.*}}cannot differentiate 'f': cannot differentiate the instruction 'shufflevector'
