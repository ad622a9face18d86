; Activity markers (enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out),
; passed as loaded values or as addresses, are only arguments of the request:
; after lowering, their loads and the external declarations are gone, so
; nothing needs a definition of `int enzyme_dup` at link time. The gradient
; call receives the primal arguments, then the shadows in order.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s --implicit-check-not=@enzyme_

target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)

; a[0] * b[0] * s * t
define double @f(ptr %a, ptr %b, double %s, double %t) {
  %va = load double, ptr %a
  %vb = load double, ptr %b
  %p = fmul double %va, %vb
  %q = fmul double %p, %s
  %r = fmul double %q, %t
  ret double %r
}

define double @by_value(ptr %a, ptr %da, ptr %b, ptr %db, double %s, double %t) {
  %m1 = load i32, ptr @enzyme_dup
  %m2 = load i32, ptr @enzyme_dupnoneed
  %m3 = load i32, ptr @enzyme_const
  %m4 = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m1, ptr %a, ptr %da, i32 %m2, ptr %b, ptr %db, i32 %m3, double %s, i32 %m4, double %t)
  ret double %r
}

define double @by_address(ptr %a, ptr %da, ptr %b, ptr %db, double %s, double %t) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dupnoneed, ptr %b, ptr %db, ptr @enzyme_const, double %s, ptr @enzyme_out, double %t)
  ret double %r
}

; CHECK-LABEL: define double @by_value(
; CHECK-NOT:     load i32
; CHECK:         call { double } @f.grad(ptr %a, ptr %b, double %s, double %t, ptr %da, ptr %db)
; CHECK-NOT:     __enzyme_autodiff(

; CHECK-LABEL: define double @by_address(
; CHECK:         call { double } @f.grad(ptr %a, ptr %b, double %s, double %t, ptr %da, ptr %db)
; CHECK-NOT:     __enzyme_autodiff(
; CHECK:         ret double
