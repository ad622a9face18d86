; NVVM's arithmetic in an explicit rounding mode is what libdevice's
; `__nv_fmaf_ieee_rn` and friends become once inlined (cuda_bf16.h's __hdiv
; calls __fmaf_ieee_rn); each has the derivative of its operation. Before,
; the device compilation stopped: "no derivative rule for the intrinsic
; 'llvm.nvvm.fma.rn.f'".
; RUN: %opt_enzyme -passes=enzyme -enzyme-inline-device-derivatives=false -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare { float, float } @__enzyme_autodiff(ptr, ...)
declare float @llvm.nvvm.fma.rn.f(float, float, float)
declare float @llvm.nvvm.add.rz.ftz.f(float, float)
declare float @llvm.nvvm.mul.rm.f(float, float)
declare float @llvm.nvvm.div.rp.f(float, float)
declare float @llvm.nvvm.rcp.rn.f(float)
declare float @llvm.nvvm.sqrt.rn.f(float)
declare float @llvm.nvvm.fabs.f(float)

; fma(x, y, x) + (x + y) + x y + x / y + 1/x + sqrt(x) + |x|
define float @f(float %x, float %y) {
  %fma = call float @llvm.nvvm.fma.rn.f(float %x, float %y, float %x)
  %add = call float @llvm.nvvm.add.rz.ftz.f(float %x, float %y)
  %mul = call float @llvm.nvvm.mul.rm.f(float %x, float %y)
  %div = call float @llvm.nvvm.div.rp.f(float %x, float %y)
  %rcp = call float @llvm.nvvm.rcp.rn.f(float %x)
  %sqrt = call float @llvm.nvvm.sqrt.rn.f(float %x)
  %abs = call float @llvm.nvvm.fabs.f(float %x)
  %s1 = fadd float %fma, %add
  %s2 = fadd float %s1, %mul
  %s3 = fadd float %s2, %div
  %s4 = fadd float %s3, %rcp
  %s5 = fadd float %s4, %sqrt
  %s6 = fadd float %s5, %abs
  ret float %s6
}

define { float, float } @grad(float %x, float %y) {
  %d = call { float, float } (ptr, ...) @__enzyme_autodiff(ptr @f, float %x, float %y)
  ret { float, float } %d
}

; d/dx = (y + 1) + 1 + y + 1/y - rcp(x)^2 + 0.5/sqrt(x) + sign(x);
; d/dy = x + 1 + x - div/y. The operations themselves stay only where the
; derivative reads their results.
; CHECK-LABEL: define internal { float, float } @f.grad(float %0, float %1)
; CHECK-DAG:     [[DIV:%.*]] = tail call float @llvm.nvvm.div.rp.f(float %0, float %1)
; CHECK-DAG:     [[RCP:%.*]] = tail call float @llvm.nvvm.rcp.rn.f(float %0)
; CHECK-DAG:     [[SQRT:%.*]] = tail call float @llvm.nvvm.sqrt.rn.f(float %0)
; CHECK-DAG:     call float @llvm.copysign.f32(float 1.000000e+00, float %0)
; CHECK-DAG:     fdiv float 5.000000e-01, [[SQRT]]
; CHECK-DAG:     fmul reassoc float [[RCP]], [[RCP]]
; CHECK-DAG:     fdiv float 1.000000e+00, %1
; CHECK-DAG:     fdiv reassoc float [[DIV]], %1
; CHECK-NOT:     @llvm.nvvm.fma
; CHECK-NOT:     @llvm.nvvm.add
; CHECK-NOT:     @llvm.nvvm.mul
; CHECK:         ret { float, float }
