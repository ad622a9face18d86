; The math table matches the float (`f` suffix) and long double (`l` suffix)
; libm names and the LLVM intrinsics, and builds each partial in the call's
; own type: expf -> float result from the tape, logl -> 1/x in x86_fp80,
; llvm.sin.f64 -> llvm.cos.f64. The float gradient is converted to the
; declared double return of __enzyme_autodiff with fpext.
; RUN: %opt_enzyme -passes=enzyme -S %s -o %t
; RUN: FileCheck %s --check-prefix=FLOAT < %t
; RUN: FileCheck %s --check-prefix=LONG < %t
; RUN: FileCheck %s --check-prefix=INTR < %t

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare float @expf(float)
declare x86_fp80 @logl(x86_fp80)
declare double @llvm.sin.f64(double)

define float @ff(float %x) {
  %r = call float @expf(float %x)
  ret float %r
}

define x86_fp80 @fl(x86_fp80 %x) {
  %r = call x86_fp80 @logl(x86_fp80 %x)
  ret x86_fp80 %r
}

define double @fi(double %x) {
  %r = call double @llvm.sin.f64(double %x)
  ret double %r
}

define double @test_float(float %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @ff, float %x)
  ret double %r
}

define double @test_long(x86_fp80 %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @fl, x86_fp80 %x)
  ret double %r
}

define double @test_intrinsic(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @fi, double %x)
  ret double %r
}

; FLOAT-LABEL: define double @test_float(
; FLOAT:         [[G:%[0-9]+]] = call { float } @ff.grad(float %x)
; FLOAT:         [[G0:%[0-9]+]] = extractvalue { float } [[G]], 0
; FLOAT:         [[D:%[0-9]+]] = fpext float [[G0]] to double
; FLOAT:         ret double [[D]]

; FLOAT-LABEL: define internal { float } @ff.rev(
; FLOAT-SAME:    float [[X:%[0-9]+]], float [[DRET:%[0-9]+]], ptr
; FLOAT:         [[R:%[0-9]+]] = load float, ptr
; FLOAT:         fmul float [[R]], [[DRET]]
; FLOAT:         ret { float }
; FLOAT-LABEL: {{^}}define

; LONG-LABEL: define double @test_long(
; LONG:         [[G:%[0-9]+]] = call { x86_fp80 } @fl.grad(x86_fp80 %x)
; LONG:         [[G0:%[0-9]+]] = extractvalue { x86_fp80 } [[G]], 0
; LONG:         fptrunc x86_fp80 [[G0]] to double

; LONG-LABEL: define internal { x86_fp80 } @fl.rev(
; LONG-SAME:    x86_fp80 [[X:%[0-9]+]], x86_fp80 [[DRET:%[0-9]+]], ptr
; LONG:         [[P:%[0-9]+]] = fdiv x86_fp80 0xK3FFF8000000000000000, [[X]]
; LONG:         fmul x86_fp80 [[P]], [[DRET]]
; LONG:         ret { x86_fp80 }
; LONG-LABEL: {{^}}define

; INTR-LABEL: define double @test_intrinsic(
; INTR:         call { double } @fi.grad(double %x)

; INTR-LABEL: define internal { double } @fi.rev(
; INTR-SAME:    double [[X:%[0-9]+]], double [[DRET:%[0-9]+]], ptr
; INTR:         [[C:%[0-9]+]] = tail call double @llvm.cos.f64(double [[X]])
; INTR:         fmul double [[C]], [[DRET]]
; INTR:         ret { double }
; INTR-LABEL: {{^}}define
