; An address computed as an integer from one pointer, moved within its
; object (a buffer over-allocated on the stack and aligned by hand, as
; Eigen's aligned stack buffers are: (p + 15) & -16), has a shadow: the same
; arithmetic redone on the shadow's address, so that it is aligned as the
; code requires. Both modes.
; RUN: sed '/^define double @test_fwd/,/^}/d' %s | %opt_enzyme -passes=enzyme -S | FileCheck %s --check-prefix=REV
; RUN: sed '/^define double @test_rev/,/^}/d' %s | %opt_enzyme -passes=enzyme -S | FileCheck %s --check-prefix=FWD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %block = alloca [48 x i8], align 8
  %base = ptrtoint ptr %block to i64
  %up = add i64 %base, 15
  %aligned = and i64 %up, -16
  %buf = inttoptr i64 %aligned to ptr
  %sq = fmul double %x, %x
  store double %sq, ptr %buf, align 16
  %back = load double, ptr %buf, align 16
  ret double %back
}

define double @test_rev(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

define double @test_fwd(double %x) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %t
}

; REV-LABEL: define internal {{.*}} @f.grad(
; REV:         [[S:%.*]] = getelementptr i8, ptr %shadow.mem{{.*}}, i64
; REV:         [[SI:%.*]] = ptrtoint ptr [[S]] to i64
; REV:         [[SUP:%.*]] = add i64 [[SI]], 15
; REV:         [[SAL:%.*]] = and i64 [[SUP]], -16
; REV:         [[SBUF:%.*]] = inttoptr i64 [[SAL]] to ptr
; REV:         load double, ptr {{.*}}, align 16

; FWD-LABEL: define internal { double, double } @f.fwd(
; FWD:         [[S:%.*]] = alloca [48 x i8]
; FWD:         [[SI:%.*]] = ptrtoint ptr [[S]] to i64
; FWD:         [[SUP:%.*]] = add i64 [[SI]], 15
; FWD:         [[SAL:%.*]] = and i64 [[SUP]], -16
; FWD:         [[SBUF:%.*]] = inttoptr i64 [[SAL]] to ptr
; FWD:         store double {{.*}}, ptr [[SBUF]], align 16
