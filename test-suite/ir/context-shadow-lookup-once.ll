; With enzyme_context, a global without a declared shadow takes its shadow
; from the current context: each generated function looks it up once, at its
; entry (one call per global, whatever the number of accesses, loops
; included), and the request sets the current context around its call and
; restores the previous one after it.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@g = global double 2.0
@arr = global [4 x double] zeroinitializer
@enzyme_context = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
entry:
  %g0 = load double, ptr @g
  %a = fmul double %g0, %x
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ %a, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds [4 x double], ptr @arr, i64 0, i64 %i
  %e = load double, ptr %p
  %g1 = load double, ptr @g
  %t = fmul double %e, %g1
  %s.next = fadd double %s, %t
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 4
  br i1 %done, label %exit, label %loop

exit:
  %e3 = load double, ptr getelementptr inbounds ([4 x double], ptr @arr, i64 0, i64 3)
  %r = fmul double %s.next, %e3
  ret double %r
}

define double @test(ptr %ctx, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_context, ptr %ctx, double %x)
  ret double %d
}

; CHECK-LABEL: define double @test(
; CHECK: %[[SLOT:.*]] = call ptr @llvm.threadlocal.address.p0(ptr @enzyme.context.current)
; CHECK-NEXT: %[[PREV:.*]] = load ptr, ptr %[[SLOT]]
; CHECK-NEXT: store ptr %ctx, ptr %[[SLOT]]
; CHECK-NEXT: call { double } @f.grad(double %x)
; CHECK-NEXT: store ptr %[[PREV]], ptr %[[SLOT]]

; The reverse function: one lookup per global, at its entry.
; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-NEXT: {{^[a-z.]+:}}
; CHECK-NEXT: %arr.shadow = {{.*}}call {{.*}}ptr @enzyme.context.current_shadow(ptr {{.*}}@arr, i64 32)
; CHECK-NOT: @enzyme.context.current_shadow(ptr {{.*}}@arr
; CHECK: %g.shadow = {{.*}}call {{.*}}ptr @enzyme.context.current_shadow(ptr {{.*}}@g, i64 8)
; CHECK-NOT: @enzyme.context.current_shadow
; CHECK-LABEL: define linkonce_odr ptr @enzyme.context.current_shadow(
