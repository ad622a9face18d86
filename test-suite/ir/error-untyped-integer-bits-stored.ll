; Integer vectors that only move the bits of memory with derivatives
; (loaded, shuffled, stored) may be floats or integers. Where something
; says (a type-based alias tag, another access of the same bytes, here the
; loads of @typed), the preparation gives the web its floating-point type
; and derivatives follow it; where nothing does (@untyped), a zero
; derivative would be silently wrong, so both modes stop with an error.
; RUN: sed '/^define .* @test_fwd/,/^}/d' %s | not %opt_enzyme -passes=enzyme -disable-output 2>&1 | FileCheck %s
; RUN: sed '/^define .* @test_rev/,/^}/d' %s | not %opt_enzyme -passes=enzyme -disable-output 2>&1 | FileCheck %s
; RUN: sed '/^define .* @test_\(rev\|fwd\)(/,/^}/d' %s | %opt_enzyme -passes=enzyme -S | FileCheck %s --check-prefix=TYPED

target triple = "x86_64-unknown-linux-gnu"
declare void @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)

; Broadcasts the low double of %src into %dst as <4 x i32> lanes.
define void @untyped(ptr %src, ptr %dst) {
  %bits = load <4 x i32>, ptr %src, align 16
  %low = shufflevector <4 x i32> %bits, <4 x i32> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  store <4 x i32> %low, ptr %dst, align 16
  ret void
}

; The same, and the caller's packet is then read as doubles.
define double @typed(ptr %src, ptr %dst) {
  %bits = load <4 x i32>, ptr %src, align 16
  %low = shufflevector <4 x i32> %bits, <4 x i32> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  store <4 x i32> %low, ptr %dst, align 16
  %v = load <2 x double>, ptr %dst, align 16
  %a = extractelement <2 x double> %v, i64 0
  %b = extractelement <2 x double> %v, i64 1
  %s = fmul double %a, %b
  ret double %s
}

define void @test_rev(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @untyped, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

define void @test_fwd(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @untyped, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

define void @test_typed(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @typed, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK: error: {{.*}}cannot differentiate 'untyped': cannot tell whether the integers stored here, moved from memory with derivatives ('bits') through integer shuffles, phis or selects, are the bits of floating-point values

; The adjoint of the broadcast: both lanes of the packet go back to the
; low double of the source.
; TYPED-LABEL: define {{.*}} @typed.rev(
; TYPED: load <2 x double>
; TYPED: fadd
; TYPED-NOT: error
