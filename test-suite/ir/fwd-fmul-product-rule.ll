; Forward mode of a product: d(a*b) = da*b + a*db when both are active; with
; one operand enzyme_const only the active term is emitted (no multiply by a
; zero tangent).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %a, double %b) {
  %r = fmul double %a, %b
  ret double %r
}

define double @both(double %a, double %da, double %b, double %db) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %a, double %da, double %b, double %db)
  ret double %t
}

define double @one(double %a, double %da, double %b) {
  %m = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %a, double %da, i32 %m, double %b)
  ret double %t
}

; The tangent function takes (a, b, da[, db]): %0, %1, %2[, %3]; the
; cleanup may commute the products.
; CHECK-LABEL: define internal { double, double } @f.fwd(
; CHECK-SAME:    double %0, double %1, double %2, double %3)
; CHECK-DAG:     [[T1:%.*]] = fmul double {{%2, %1|%1, %2}}
; CHECK-DAG:     [[T2:%.*]] = fmul double {{%0, %3|%3, %0}}
; CHECK:         fadd double {{.*}}[[T1]]
; CHECK:         ret

; CHECK-LABEL: define internal { double, double } @f.fwd.{{[0-9]+}}(
; CHECK-SAME:    double %0, double %1, double %2)
; CHECK:         [[T:%.*]] = fmul double {{%2, %1|%1, %2}}
; CHECK-NOT:     fadd
; CHECK:         insertvalue { double, double } {{.*}}, double [[T]], 1
