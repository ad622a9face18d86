; A pointer kept in an integer with a flag in its low bit (Kokkos' View
; allocation tracker, LLVM's PointerIntPair): loaded as an integer, tagged
; with `or`, cleared with `and`, and turned back into the address. Its
; shadow is the shadow memory's integer with the same flags. Where branches
; join, a phi of such integers becomes a phi of pointers
; (Modes/TaggedPointerWebs.h) whose flags are address arithmetic. Before,
; both were "a pointer taken out of the bits of a value loaded from memory
; with derivatives" errors. Both modes.
; RUN: sed '/^define double @test_fwd/,/^}/d' %s | %opt_enzyme -passes=enzyme -S | FileCheck %s --check-prefix=REV
; RUN: sed '/^define double @test_rev/,/^}/d' %s | %opt_enzyme -passes=enzyme -S | FileCheck %s --check-prefix=FWD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; %a and %b each hold the tagged address of a double.
define double @f(ptr %a, ptr %b, i1 %c, i1 %flag) {
entry:
  br i1 %c, label %left, label %right

left:
  %la = load i64, ptr %a, align 8
  %set = zext i1 %flag to i64
  %ta = or i64 %la, %set
  br label %join

right:
  %lb = load i64, ptr %b, align 8
  br label %join

join:
  %bits = phi i64 [ %ta, %left ], [ %lb, %right ]
  %clear = and i64 %bits, -2
  %p = inttoptr i64 %clear to ptr
  %x = load double, ptr %p, align 8
  %again = load i64, ptr %a, align 8
  %tagged = or i64 %again, 1
  %q = inttoptr i64 %tagged to ptr
  %base = getelementptr i8, ptr %q, i64 -1
  %y = load double, ptr %base, align 8
  %xy = fmul double %x, %y
  ret double %xy
}

define double @test_rev(ptr %a, ptr %da, ptr %b, ptr %db, i1 %c, i1 %flag) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, i1 %c, i1 %flag)
  ret double %g
}

define double @test_fwd(ptr %a, ptr %da, ptr %b, ptr %db, i1 %c, i1 %flag) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, i1 %c, i1 %flag)
  ret double %t
}

; REV-LABEL: define internal double @f.aug(
; REV-DAG:     %la.shadow = load i64, ptr %4
; REV-DAG:     %lb.shadow = load i64, ptr %5
; REV:         %bits.ptr.shadow.in = phi i64 [ %la.shadow, %left ], [ %lb.shadow, %right ]
; REV:         [[TAG:%.*]] = or i64 %again.shadow, 1
; REV-NEXT:    %q.shadow = inttoptr i64 [[TAG]] to ptr
; REV-NEXT:    [[CLEAR:%.*]] = and i64 %bits.ptr.shadow.in, -2
; REV-NEXT:    %p.shadow = inttoptr i64 [[CLEAR]] to ptr

; FWD-LABEL: define internal { double, double } @f.fwd(
; FWD:         %bits.ptr.tangent.in = phi i64 [ %la.shadow, %left ], [ %lb.shadow, %right ]
; FWD:         [[CLEAR:%.*]] = and i64 %bits.ptr.tangent.in, -2
; FWD-NEXT:    %p.shadow = inttoptr i64 [[CLEAR]] to ptr
; FWD:         %x.tangent = load double, ptr %p.shadow
; FWD:         [[TAG:%.*]] = or i64 %again.shadow, 1
; FWD-NEXT:    %q.shadow = inttoptr i64 [[TAG]] to ptr
; FWD:         %base.shadow = getelementptr i8, ptr %q.shadow, i64 -1
; FWD:         %y.tangent = load double, ptr %base.shadow
