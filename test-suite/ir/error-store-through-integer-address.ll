; A value with a derivative stored through an address computed from an
; integer that is not one pointer's address moved within its object (as
; AddressSanitizer's stack frames make them, choosing between its fake
; stack, an integer from the run-time, and the real frame; requests
; completed at the link see them) has no shadow: the derivative would be
; lost, so both modes stop with an error instead of dropping it. (An
; address moved by constant offsets or aligned by hand has one:
; ir/address-arithmetic-shadow.ll.)
; RUN: sed '/^define double @test_fwd/,/^}/d' %s | not %opt_enzyme -passes=enzyme -disable-output 2>&1 | FileCheck %s
; RUN: sed '/^define double @test_rev/,/^}/d' %s | not %opt_enzyme -passes=enzyme -disable-output 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

declare i64 @__asan_stack_malloc_1(i64)

define double @f(double %x) {
  %frame = alloca [4 x double]
  %real = ptrtoint ptr %frame to i64
  %fake = call i64 @__asan_stack_malloc_1(i64 64)
  %useFake = icmp ne i64 %fake, 0
  %base = select i1 %useFake, i64 %fake, i64 %real
  %addr = add i64 %base, 8
  %slot = inttoptr i64 %addr to ptr
  %sq = fmul double %x, %x
  store double %sq, ptr %slot
  %back = load double, ptr %slot
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

; CHECK: error: {{.*}}cannot differentiate 'f': a value that carries a derivative is stored through an address computed from an integer
