; insertvalue and extractvalue: a noinline callee builds a { double, double }
; with insertvalue and the caller takes it apart with extractvalue. The
; caller's reverse pass inserts the adjoints of the extracted fields into a
; struct adjoint for the call, and the callee's reverse pass extracts the
; adjoint of each inserted field.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare { double, double } @__enzyme_autodiff(ptr, ...)

; (x, y*y)
define internal { double, double } @pair(double %x, double %y) noinline {
  %a = insertvalue { double, double } undef, double %x, 0
  %b = fmul double %y, %y
  %c = insertvalue { double, double } %a, double %b, 1
  ret { double, double } %c
}

; x * y^2
define double @f(double %x, double %y) {
  %p = call { double, double } @pair(double %x, double %y)
  %u = extractvalue { double, double } %p, 0
  %v = extractvalue { double, double } %p, 1
  %r = fmul double %u, %v
  ret double %r
}

define { double, double } @test(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %g
}

; The caller's reverse: the adjoint of u (= v * seed) goes to field 0, the
; adjoint of v (= u * seed) to field 1 of the struct passed to pair.rev.
; CHECK-LABEL: define internal { double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[DRET:%[0-9]+]], ptr [[TAPE:%[0-9]+]])
; CHECK:         [[U:%.*]] = load double, ptr
; CHECK:         [[V:%.*]] = load double, ptr
; CHECK-DAG:     [[DU:%[0-9]+]] = fmul double [[V]], [[DRET]]
; CHECK-DAG:     [[DV:%[0-9]+]] = fmul double [[U]], [[DRET]]
; CHECK:         [[S0:%.*]] = insertvalue { double, double } {{.*}}, double [[DU]], 0
; CHECK:         [[S1:%.*]] = insertvalue { double, double } [[S0]], double [[DV]], 1
; CHECK:         call { double, double } @pair.rev(double [[X]], double [[Y]], { double, double } [[S1]], ptr {{.*}}[[TAPE]])
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
; The callee's reverse: field 0 of the adjoint is x's, field 1 times 2y is y's.
; CHECK-LABEL: define internal { double, double } @pair.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], { double, double } [[DS:%[0-9]+]], ptr
; CHECK-DAG:     [[D1:%[0-9]+]] = extractvalue { double, double } [[DS]], 1
; CHECK-DAG:     [[D0:%[0-9]+]] = extractvalue { double, double } [[DS]], 0
; CHECK-DAG:     [[T:%[0-9]+]] = fmul double [[D1]], [[Y]]
; CHECK-DAG:     fadd reassoc double [[T]], [[T]]
; CHECK:         ret { double, double }
; CHECK-LABEL: {{^}}define
