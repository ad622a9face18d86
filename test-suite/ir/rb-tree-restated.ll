; libstdc++'s red-black tree functions (std::map, std::set) are declarations
; in the module: the shared library links the nodes. A call to one becomes a
; call to the engine's restatement (runtime/RbTree.c), linked into the
; module and differentiated like any code, so that the shadow tree is
; walked and linked as the tree is; it is not marked inactive.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)

; The value stored in the node after %node (a double at offset 32).
define double @next_value(ptr %node) {
  %next = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node)
  %field = getelementptr inbounds i8, ptr %next, i64 32
  %v = load double, ptr %field, align 8
  ret double %v
}

define void @test(ptr %n, ptr %dn) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @next_value, ptr %n, ptr %dn)
  ret void
}

; CHECK:       define linkonce_odr hidden {{.*}}ptr @__enzyme_rb_increment(ptr {{.*}} #[[RB:[0-9]+]] {
; CHECK:       define internal { ptr, ptr } @__enzyme_rb_increment.aug(
; CHECK-LABEL: define internal void @next_value.grad(
; CHECK:         call { ptr, ptr } @__enzyme_rb_increment.aug(ptr %0, ptr %1,
; CHECK-NOT:     call {{.*}}_Rb_tree_increment
; CHECK-NOT:     attributes #[[RB]] = {{.*}}enzyme_inactive
