; fpext and fptrunc: the adjoint is converted back to the operand's type
; (an fpext'ed float gets an fptrunc'ed adjoint and vice versa).
; RUN: %opt_enzyme -passes=enzyme -S %s -o %t
; RUN: FileCheck %s --check-prefix=WIDEN < %t
; RUN: FileCheck %s --check-prefix=NARROW < %t

target triple = "x86_64-unknown-linux-gnu"

declare float @__enzyme_autodiff(ptr, ...)

; (double)x * 3 for a float x.
define double @widen(float %x) {
  %e = fpext float %x to double
  %r = fmul double %e, 3.0
  ret double %r
}

; (float)x * 3 for a double x.
define float @narrow(double %x) {
  %t = fptrunc double %x to float
  %r = fmul float %t, 3.0
  ret float %r
}

define float @test_widen(float %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @widen, float %x)
  ret float %g
}

define float @test_narrow(double %x) {
  %g = call float (ptr, ...) @__enzyme_autodiff(ptr @narrow, double %x)
  ret float %g
}

; WIDEN-LABEL: define internal { float } @widen.rev(
; WIDEN-SAME:    float {{%[0-9]+}}, double [[D:%[0-9]+]], ptr
; WIDEN:         [[M:%[0-9]+]] = fmul double [[D]], 3.000000e+00
; WIDEN:         [[G:%[0-9]+]] = fptrunc double [[M]] to float
; WIDEN:         ret { float }
; WIDEN-LABEL: {{^}}define

; NARROW-LABEL: define internal { double } @narrow.rev(
; NARROW-SAME:    double {{%[0-9]+}}, float [[D:%[0-9]+]], ptr
; NARROW:         [[M:%[0-9]+]] = fmul float [[D]], 3.000000e+00
; NARROW:         [[G:%[0-9]+]] = fpext float [[M]] to double
; NARROW:         ret { double }
; NARROW-LABEL: {{^}}define
