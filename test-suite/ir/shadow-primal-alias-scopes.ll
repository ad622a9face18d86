; Shadow memory never overlaps primal memory (docs/reverse-mode.md): in the
; generated functions, an access through a shadow argument carries a scope
; that accesses through primal arguments are noalias with, and the other way
; round, so LLVM can keep primal values in registers across adjoint updates
; and vectorise a reverse loop without a runtime overlap check. Accesses
; through anything else (here the pointer loaded from %pp) get no such tag.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)

; sum_i a[i] * b[i] + (*pp)[0]
define double @f(ptr %a, ptr %b, ptr %pp, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %pb = getelementptr inbounds double, ptr %b, i64 %i
  %va = load double, ptr %pa
  %vb = load double, ptr %pb
  %m = fmul double %va, %vb
  %s.next = fadd double %s, %m
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %p = load ptr, ptr %pp
  %v = load double, ptr %p
  %r = fadd double %s.next, %v
  ret double %r
}

define double @test(ptr %a, ptr %da, ptr %b, ptr %db, ptr %pp, ptr %dpp, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, ptr %pp, ptr %dpp, i64 %n)
  ret double %g
}

; The reverse function: f's parameters, then the shadows of a, b and pp.
; CHECK-LABEL: define internal void @f.rev(
; CHECK-SAME:    ptr [[A:%[0-9]+]], ptr [[B:%[0-9]+]], ptr {{%[0-9]+}}, i64 {{%[0-9]+}}, ptr [[DA:%[0-9]+]], ptr [[DB:%[0-9]+]], ptr {{%[0-9]+}},
; The shadow of the loaded pointer comes from the tape: no tag but the tape's.
; CHECK:         getelementptr inbounds i8, ptr {{%[0-9]+}}, i64 %tape.newsize
; CHECK-NEXT:    [[P:%[0-9]+]] = load ptr, ptr {{%[0-9]+}}, align 8, !alias.scope [[TAPE_DATA_ONLY:![0-9]+]],
; CHECK-NEXT:    load double, ptr [[P]], align 8, !noalias [[TAPE_ONLY:![0-9]+]]{{$}}
; In the loop: primal loads of b[i] and a[i]; shadow updates of db[i], da[i].
; CHECK:         [[PB:%[a-z.]+]] = getelementptr inbounds double, ptr [[B]]
; CHECK-NEXT:    load double, ptr [[PB]], align 8, !alias.scope [[PRIMAL:![0-9]+]], !noalias [[NOT_PRIMAL:![0-9]+]]
; CHECK:         [[PA:%[a-z.]+]] = getelementptr inbounds double, ptr [[A]]
; CHECK-NEXT:    load double, ptr [[PA]], align 8, !alias.scope [[PRIMAL]], !noalias [[NOT_PRIMAL]]
; CHECK:         store double {{%[0-9]+}}, ptr %pb.shadow.re, align 8, !alias.scope [[SHADOW:![0-9]+]], !noalias [[NOT_SHADOW:![0-9]+]]
; CHECK:         store double {{%[0-9]+}}, ptr %pa.shadow.re, align 8, !alias.scope [[SHADOW]], !noalias [[NOT_SHADOW]]
; CHECK:         ret void

; CHECK-DAG: [[TAPE_DATA_ONLY]] = !{[[TAPE_DATA:![0-9]+]]}
; CHECK-DAG: [[TAPE_ONLY]] = !{[[TAPE_HEADER:![0-9]+]], [[TAPE_DATA]]}
; CHECK-DAG: [[PRIMAL]] = !{[[PRIMAL_SCOPE:![0-9]+]]}
; CHECK-DAG: [[SHADOW]] = !{[[SHADOW_SCOPE:![0-9]+]]}
; CHECK-DAG: [[NOT_PRIMAL]] = !{[[TAPE_HEADER]], [[TAPE_DATA]], [[SHADOW_SCOPE]]}
; CHECK-DAG: [[NOT_SHADOW]] = !{[[TAPE_HEADER]], [[TAPE_DATA]], [[PRIMAL_SCOPE]]}
; CHECK-DAG: [[PRIMAL_SCOPE]] = distinct !{[[PRIMAL_SCOPE]], [[DOMAIN:![0-9]+]], !"enzyme.primal"}
; CHECK-DAG: [[SHADOW_SCOPE]] = distinct !{[[SHADOW_SCOPE]], [[DOMAIN]], !"enzyme.shadow"}
; CHECK-DAG: [[DOMAIN]] = distinct !{[[DOMAIN]], !"enzyme.shadow-vs-primal"}
