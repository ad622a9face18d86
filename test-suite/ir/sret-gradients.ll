; A gradient struct too large for registers comes back through an sret
; pointer (x86-64 for three doubles): the lowering stores the gradients of
; the active scalars, in order, into it. Here x, y and w are active and z is
; enzyme_const: f = x*y*z + w, so the gradients are (y*z, x*z, 1).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_out = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y, double %z, double %w) {
  %a = fmul double %x, %y
  %b = fmul double %a, %z
  %c = fadd double %b, %w
  ret double %c
}

define void @test(ptr noalias sret({ double, double, double }) align 8 %out, double %x, double %y, double %z, double %w) {
  %o = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr sret({ double, double, double }) align 8 %out, ptr @f, i32 %o, double %x, double %y, i32 %c, double %z, i32 %o, double %w)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK-NOT:     @__enzyme_autodiff
; CHECK:         [[G:%[0-9]+]] = call { double, double, double } @f.grad(double %x, double %y, double %z, double %w)
; CHECK-DAG:     [[G0:%[0-9]+]] = extractvalue { double, double, double } [[G]], 0
; CHECK-DAG:     [[G1:%[0-9]+]] = extractvalue { double, double, double } [[G]], 1
; CHECK-DAG:     [[G2:%[0-9]+]] = extractvalue { double, double, double } [[G]], 2
; CHECK:         [[S0:%[0-9]+]] = insertvalue { double, double, double } {{.*}}, double [[G0]], 0
; CHECK:         [[S1:%[0-9]+]] = insertvalue { double, double, double } [[S0]], double [[G1]], 1
; CHECK:         [[S2:%[0-9]+]] = insertvalue { double, double, double } [[S1]], double [[G2]], 2
; CHECK:         store { double, double, double } [[S2]], ptr %out
; CHECK:         ret void

; CHECK-LABEL: define internal { double, double, double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[Y:%[0-9]+]], double [[Z:%[0-9]+]], double [[W:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[ZD:%[0-9]+]] = fmul double [[Z]], [[DRET]]
; CHECK-DAG:     [[GX:%[0-9]+]] = fmul double [[ZD]], [[Y]]
; CHECK-DAG:     [[GY:%[0-9]+]] = fmul double [[ZD]], [[X]]
; CHECK:         [[GW:%[0-9]+]] = fadd double [[DRET]], 0.000000e+00
; CHECK:         insertvalue { double, double, double } {{%[0-9]+}}, double [[GW]], 2
; CHECK:         ret { double, double, double }
; CHECK-LABEL: {{^}}define
