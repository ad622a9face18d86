; A one-double memcpy after a conditional update, as -O2 leaves it: the
; copy stores a phi of i64 whose inputs are the loaded bits and the updated
; double forwarded as a bitcast (C fuzzer seed 1340). Preparation gives the
; phi back its type, so the copy carries the adjoint: the reverse pass moves
; dst' into the phi's adjoint and from there to sin's argument or to src'.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @sin(double)

define void @f(ptr %dst, ptr %src, i32 %flag) {
entry:
  %skip = icmp eq i32 %flag, 0
  br i1 %skip, label %keep, label %update

keep:
  %bits = load i64, ptr %src, align 8
  br label %copy

update:
  %x = load double, ptr %src, align 8
  %s = call double @sin(double %x)
  store double %s, ptr %src, align 8
  %sbits = bitcast double %s to i64
  br label %copy

copy:
  %v = phi i64 [ %bits, %keep ], [ %sbits, %update ]
  store i64 %v, ptr %dst, align 8
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %flag) {
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %d, ptr %dd, ptr %s, ptr %ds, i32 %c, i32 %flag)
  ret void
}

; The reverse pass reads the destination's adjoint as a double and clears it;
; the kept branch returns it to the source's shadow, the updated one through
; sin's derivative.
; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr [[DDST:%[0-9]+]], ptr [[DSRC:%[0-9]+]], ptr
; CHECK:         [[D:%.*]] = load double, ptr [[DDST]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[DDST]]
; CHECK:       keep.rev:
; CHECK:         [[OLD:%.*]] = load double, ptr [[DSRC]]
; CHECK-NEXT:    fadd double [[D]], [[OLD]]
; CHECK:       update.rev:
; CHECK:         [[COS:%.*]] = {{.*}}call double @llvm.cos.f64(
; CHECK:         fmul double [[COS]],
; CHECK-LABEL: {{^}}define
