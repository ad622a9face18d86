; An atomic floating-point addition into memory with derivatives (CUDA's
; atomicAdd, C++'s fetch_add on an atomic double): in reverse mode the added
; value's adjoint is read from the shadow, whose adjoint stays for the old
; value; the old value the operation returns is a read whose adjoint goes
; back into the shadow. Forward mode adds the tangents in the shadow the
; same way.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"
declare void @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)

; *acc += x * x; returns nothing.
define void @add_square(double %x, ptr %acc) {
  %sq = fmul double %x, %x
  %old = atomicrmw fadd ptr %acc, double %sq monotonic
  ret void
}

; *acc -= x; *out = 2 * (old value).
define void @sub_and_read(double %x, ptr %acc, ptr %out) {
  %old = atomicrmw fsub ptr %acc, double %x monotonic
  %twice = fmul double %old, 2.0
  store double %twice, ptr %out
  ret void
}

define double @reverse(double %x, ptr %acc, ptr %dacc) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @add_square, double %x, ptr %acc, ptr %dacc)
  ret double %g
}

define double @reverse_read(double %x, ptr %acc, ptr %dacc, ptr %out, ptr %dout) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @sub_and_read, double %x, ptr %acc, ptr %dacc, ptr %out, ptr %dout)
  ret double %g
}

define void @forward(double %x, double %dx, ptr %acc, ptr %dacc) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @add_square, double %x, double %dx, ptr %acc, ptr %dacc)
  ret void
}

; CHECK-LABEL: define internal { double } @add_square.grad(
; CHECK:         atomicrmw fadd ptr %1, double
; CHECK:         [[D:%.*]] = load double, ptr %2
; CHECK:         [[T:%.*]] = fmul double [[D]], %0
; CHECK:         fadd {{.*}}double [[T]], [[T]]

; The added value's adjoint (-dacc) is read before the old value's
; (2 * dout) goes into the shadow.
; CHECK-LABEL: define internal { double } @sub_and_read.grad(
; CHECK:         atomicrmw fsub ptr %1, double %0
; CHECK:         [[DOUT:%.*]] = load double, ptr %4
; CHECK:         [[TWICE:%.*]] = fmul double [[DOUT]], 2.0
; CHECK:         [[DA:%.*]] = load double, ptr %3
; CHECK:         [[SUM:%.*]] = fadd double [[TWICE]], [[DA]]
; CHECK:         store double [[SUM]], ptr %3
; CHECK:         fsub double 0.000000e+00, [[DA]]
; CHECK:         ret { double }

; CHECK-LABEL: define internal void @add_square.fwd(
; CHECK:         atomicrmw fadd ptr %1, double
; CHECK:         atomicrmw fadd ptr %3, double
