; Loads from a constant global table are inactive (the global has no shadow):
; the table entry only scales x's adjoint and gets no gradient of its own,
; and nothing is ever stored to a shadow of the table.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@table = private unnamed_addr constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i64 %i) {
  %p = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 %i
  %c = load double, ptr %p
  %r = fmul double %x, %c
  ret double %r
}

define double @test(double %x, i64 %i) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 %i)
  ret double %g
}

; CHECK-LABEL: define double @test(
; CHECK:         call { double } @f.grad(double %x, i64 %i)

; CHECK-LABEL: define internal double @f.aug(
; CHECK:         %c = load double, ptr
; CHECK-NOT:     store double {{.*}}@table
; CHECK:         ret double

; The table never changes, so the reverse pass reads the entry again
; instead of taking it from the tape.
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], i64 [[I:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[P:%.*]] = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 [[I]]
; CHECK:         [[C:%.*]] = load double, ptr [[P]]
; CHECK-NOT:     store
; CHECK:         fmul double [[C]], [[DRET]]
; CHECK-NOT:     store
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
