; A double bitcast to <2 x float> whose uses carry no derivative (an fcmp):
; nothing flows into the vector's adjoint, so x's gradient must be exactly
; s * seed.
;
; BUG: adjoints start at -0.0 (ReversePass.cpp, zeroAdjoint) and the BitCast
; rule converts the vector's untouched adjoint <-0.0f, -0.0f> back with a
; bitcast, which as a double is 0x8000000080000000 (about -1.06e-314), not
; -0.0, so the reverse pass emits `fadd double %g, 0x8000000080000000` and
; x's gradient is off by a denormal (e.g. -1.06e-314 instead of 0 when the
; seed is 0). The same happens for any bitcast between floating-point types
; of different element widths; the lane-wise fadd through a bitcast also
; rewrites NaN-patterned halves of a double adjoint.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; x * (low half of x, as a float, < 0 ? 2 : 3)
define double @f(double %x) {
  %v = bitcast double %x to <2 x float>
  %c = fcmp olt <2 x float> %v, zeroinitializer
  %b = extractelement <2 x i1> %c, i32 0
  %s = select i1 %b, double 2.0, double 3.0
  %r = fmul double %x, %s
  ret double %r
}

define double @test(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

; CHECK-LABEL: define internal { double } @f.rev(
; CHECK-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; CHECK:         [[S:%.*]] = select i1 {{%.*}}, double 2.000000e+00, double 3.000000e+00
; CHECK:         [[G:%[0-9]+]] = fmul double [[S]], [[DRET]]
; CHECK-NOT:     0x8000000080000000
; CHECK:         ret { double }
; CHECK-LABEL: {{^}}define
