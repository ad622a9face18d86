; On a GPU, where the run-time that reports an untyped copy at run time is
; not linked, a copy of memory with derivatives whose contents nothing
; types is a compile-time error in reverse mode (the engine does not guess
; whether to move adjoints). Forward mode copies the shadow bytes as they
; are, which is right whatever they hold.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'copy': cannot tell what the memory copied here hold: floating-point values, whose derivatives the copy must move back, or integers and addresses
; CHECK-NOT: cannot differentiate 'copy_fwd'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @copy(ptr %dst, ptr %src, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void
}

define void @copy_fwd(ptr %dst, ptr %src, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @copy, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  call void (ptr, ...) @__enzyme_fwddiff(ptr @copy_fwd, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  ret void
}
