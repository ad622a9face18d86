; In forward mode nothing outlives the frame, so the shadow of a stack
; object is a stack object too, zeroed where the primal is allocated (not a
; heap allocation as in reverse mode).
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i64 %i) {
  %buf = alloca [4 x double], align 16
  %p = getelementptr inbounds double, ptr %buf, i64 %i
  store volatile double %x, ptr %p
  %v = load volatile double, ptr %p
  %r = fmul double %v, %x
  ret double %r
}

define double @test(double %x) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i64 2)
  ret double %t
}

; CHECK-LABEL: define internal { double, double } @f.fwd(
; At the local's address modulo 64, in a block of 64 more bytes.
; CHECK:         [[BLOCK:%buf.shadow.block[0-9]*]] = alloca [96 x i8], align 64
; CHECK:         call void @llvm.memset.{{.*}}(ptr {{.*}}[[BLOCK]], i8 0, i64 96, i1 false)
; CHECK:         %buf.shadow = getelementptr i8, ptr [[BLOCK]], i64
; CHECK-NOT:     calloc
; CHECK:         ret
