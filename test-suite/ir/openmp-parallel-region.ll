; An OpenMP parallel region (clang -fopenmp -O2 of a `parallel` region with
; a worksharing loop `y[i] = *a * x[i]` and a critical update
; `*s += y[0] * y[0]`). The fork becomes a call of a region function whose
; augmented half forks a team running the outlined body's augmented
; function, each thread with its own tape kept in the region's record (its
; storage taken from, and given back to, the thread's kept storage), and
; whose reverse half forks a team of the same size running the body's
; reverse function; the threads share the forking thread's scratch shadows.
; There, adjoints of shared memory are added atomically,
; the critical section is mirrored through the run-time (which orders the
; reverse entries) and the worksharing loop's implicit barrier is a barrier
; again, taken with the reverse thread's own id.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

; CHECK-LABEL: define internal void @scale.omp_outlined.enzyme.region.aug(
; CHECK: %[[REC:[0-9]+]] = {{.*}}call ptr @__enzyme_rt_omp_region_new()
; CHECK: %[[TEAM:[0-9]+]] = {{.*}}call ptr @__enzyme_rt_scratch_team_state()
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr {{.*}}@3, i32 12, ptr {{.*}}@scale.omp_outlined.enzyme.region.aug.task, {{.*}}, ptr {{.*}}%[[TEAM]], ptr %[[REC]])
; CHECK: store ptr %[[REC]]

; CHECK-LABEL: define internal void @scale.omp_outlined.enzyme.region.rev(
; CHECK: call void @__enzyme_rt_omp_push_team(ptr {{.*}}@3, ptr %[[REC2:[0-9]+]])
; CHECK-NEXT: %[[TEAM2:[0-9]+]] = {{.*}}call ptr @__enzyme_rt_scratch_team_state()
; CHECK-NEXT: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr {{.*}}@3, i32 12, ptr {{.*}}@scale.omp_outlined.enzyme.region.rev.task, {{.*}}, ptr {{.*}}%[[TEAM2]], ptr %[[REC2]])
; CHECK-NEXT: call void @__enzyme_rt_omp_region_free(ptr %[[REC2]])

; CHECK-LABEL: define internal void @scale.omp_outlined.aug(
; CHECK: call void @__kmpc_for_static_init_4(
; CHECK: call void @__kmpc_barrier(
; CHECK: call void @__enzyme_rt_omp_critical(ptr {{.*}}@3, i32 %{{.*}}, ptr {{.*}}@.gomp_critical_user_.var)
; CHECK: call void @__kmpc_end_critical(

; CHECK-LABEL: define internal void @scale.omp_outlined.rev(
; CHECK: call void @__enzyme_rt_omp_critical_reverse_enter(ptr {{.*}}@3, ptr {{.*}}@.gomp_critical_user_.var)
; CHECK: atomicrmw fadd ptr
; CHECK: call void @__enzyme_rt_omp_critical_reverse_exit(ptr {{.*}}@3, ptr {{.*}}@.gomp_critical_user_.var)
; CHECK-NEXT: %[[TID:[0-9]+]] = {{.*}}call i32 @__kmpc_global_thread_num(ptr {{.*}}@2)
; CHECK-NEXT: call void @__kmpc_barrier(ptr {{.*}}@2, i32 %[[TID]])
; The loop's reverse: the adjoints of x[i] and of the shared *a.
; CHECK: atomicrmw fadd ptr
; CHECK: atomicrmw fadd ptr
; CHECK: ret void

; CHECK-LABEL: define internal void @scale.omp_outlined.enzyme.region.aug.task(
; CHECK: call void @__enzyme_rt_omp_thread_begin(ptr %[[R:[0-9]+]])
; CHECK-NEXT: %[[TAPE:[a-z0-9]+]] = call ptr @calloc(
; The tape starts with the storage this thread's earlier tapes left.
; CHECK-NEXT: %[[KEPT:[0-9]+]] = call { ptr, i64 } @__enzyme_rt_tape_take()
; CHECK: call void @scale.omp_outlined.aug({{.*}}, ptr %[[TAPE]])
; CHECK-NEXT: call void @__enzyme_rt_omp_keep_tape(ptr %[[R]], ptr %[[TAPE]])

; CHECK-LABEL: define internal void @scale.omp_outlined.enzyme.region.rev.task(
; CHECK: %[[T:[0-9]+]] = call ptr @__enzyme_rt_omp_thread_tape(
; CHECK-NEXT: call void @scale.omp_outlined.rev({{.*}}, ptr %[[T]])
; CHECK-NEXT: call void @__enzyme_rt_omp_thread_end()
; Its storage is kept for the thread's next tapes; the header is freed.
; CHECK: call void @__enzyme_rt_tape_give(ptr %{{.*}}, i64 %{{.*}})
; CHECK-NEXT: call void @free(ptr %[[T]])

; ModuleID = 'ir.c'
source_filename = "ir.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @0 }, align 8
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.gomp_critical_user_.var = common global [8 x i32] zeroinitializer, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @scale(ptr noundef %x, ptr noundef %y, ptr noundef %a, ptr noundef %s, i32 noundef %n) {
entry:
  %x.addr = alloca ptr, align 8
  %y.addr = alloca ptr, align 8
  %a.addr = alloca ptr, align 8
  %s.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  store ptr %x, ptr %x.addr, align 8
  store ptr %y, ptr %y.addr, align 8
  store ptr %a, ptr %a.addr, align 8
  store ptr %s, ptr %s.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @3, i32 5, ptr nonnull @scale.omp_outlined, ptr nonnull %n.addr, ptr nonnull %y.addr, ptr nonnull %a.addr, ptr nonnull %x.addr, ptr nonnull %s.addr)
  ret void
}

define internal void @scale.omp_outlined(ptr noalias nocapture noundef readonly %.global_tid., ptr noalias nocapture readnone %.bound_tid., ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %n, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %y, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %a, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %x, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %s) {
entry:
  %.omp.lb = alloca i32, align 4
  %.omp.ub = alloca i32, align 4
  %.omp.stride = alloca i32, align 4
  %.omp.is_last = alloca i32, align 4
  %0 = load i32, ptr %n, align 4
  %cmp = icmp sgt i32 %0, 0
  %.pre = load i32, ptr %.global_tid., align 4
  br i1 %cmp, label %omp.precond.then, label %omp.precond.end

omp.precond.then:                                 ; preds = %entry
  %sub2 = add nsw i32 %0, -1
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %.omp.lb)
  store i32 0, ptr %.omp.lb, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %.omp.ub)
  store i32 %sub2, ptr %.omp.ub, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %.omp.stride)
  store i32 1, ptr %.omp.stride, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %.omp.is_last)
  store i32 0, ptr %.omp.is_last, align 4
  call void @__kmpc_for_static_init_4(ptr nonnull @1, i32 %.pre, i32 34, ptr nonnull %.omp.is_last, ptr nonnull %.omp.lb, ptr nonnull %.omp.ub, ptr nonnull %.omp.stride, i32 1, i32 1)
  %1 = load i32, ptr %.omp.ub, align 4
  %cond = call i32 @llvm.smin.i32(i32 %1, i32 %sub2)
  store i32 %cond, ptr %.omp.ub, align 4
  %2 = load i32, ptr %.omp.lb, align 4
  %cmp5.not22 = icmp sgt i32 %2, %cond
  br i1 %cmp5.not22, label %omp.loop.exit, label %omp.inner.for.body.lr.ph

omp.inner.for.body.lr.ph:                         ; preds = %omp.precond.then
  %3 = load ptr, ptr %a, align 8
  %4 = load ptr, ptr %x, align 8
  %5 = load ptr, ptr %y, align 8
  %6 = sext i32 %2 to i64
  %7 = add nsw i32 %cond, 1
  %8 = sub i32 %cond, %2
  %9 = zext i32 %8 to i64
  %10 = add nuw nsw i64 %9, 1
  %min.iters.check = icmp ult i32 %8, 17
  br i1 %min.iters.check, label %omp.inner.for.body.preheader, label %vector.memcheck

vector.memcheck:                                  ; preds = %omp.inner.for.body.lr.ph
  %11 = shl nsw i64 %6, 3
  %scevgep = getelementptr i8, ptr %5, i64 %11
  %12 = sub i32 %cond, %2
  %13 = zext i32 %12 to i64
  %14 = add nsw i64 %6, %13
  %15 = shl nsw i64 %14, 3
  %16 = add nsw i64 %15, 8
  %scevgep25 = getelementptr i8, ptr %5, i64 %16
  %scevgep26 = getelementptr i8, ptr %3, i64 8
  %scevgep27 = getelementptr i8, ptr %4, i64 %11
  %scevgep28 = getelementptr i8, ptr %4, i64 %16
  %bound0 = icmp ult ptr %scevgep, %scevgep26
  %bound1 = icmp ult ptr %3, %scevgep25
  %found.conflict = and i1 %bound0, %bound1
  %bound029 = icmp ult ptr %scevgep, %scevgep28
  %bound130 = icmp ult ptr %scevgep27, %scevgep25
  %found.conflict31 = and i1 %bound029, %bound130
  %conflict.rdx = or i1 %found.conflict, %found.conflict31
  br i1 %conflict.rdx, label %omp.inner.for.body.preheader, label %vector.ph

vector.ph:                                        ; preds = %vector.memcheck
  %n.vec = and i64 %10, 8589934588
  %ind.end = add nsw i64 %n.vec, %6
  %17 = load double, ptr %3, align 8
  %broadcast.splatinsert33 = insertelement <2 x double> poison, double %17, i64 0
  %broadcast.splat34 = shufflevector <2 x double> %broadcast.splatinsert33, <2 x double> poison, <2 x i32> zeroinitializer
  br label %vector.body

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i64 [ 0, %vector.ph ], [ %index.next, %vector.body ]
  %offset.idx = add i64 %index, %6
  %18 = getelementptr inbounds double, ptr %4, i64 %offset.idx
  %19 = getelementptr inbounds i8, ptr %18, i64 16
  %wide.load = load <2 x double>, ptr %18, align 8
  %wide.load32 = load <2 x double>, ptr %19, align 8
  %20 = fmul <2 x double> %broadcast.splat34, %wide.load
  %21 = fmul <2 x double> %broadcast.splat34, %wide.load32
  %22 = getelementptr inbounds double, ptr %5, i64 %offset.idx
  %23 = getelementptr inbounds i8, ptr %22, i64 16
  store <2 x double> %20, ptr %22, align 8
  store <2 x double> %21, ptr %23, align 8
  %index.next = add nuw i64 %index, 4
  %24 = icmp eq i64 %index.next, %n.vec
  br i1 %24, label %middle.block, label %vector.body

middle.block:                                     ; preds = %vector.body
  %cmp.n = icmp eq i64 %10, %n.vec
  br i1 %cmp.n, label %omp.loop.exit, label %omp.inner.for.body.preheader

omp.inner.for.body.preheader:                     ; preds = %middle.block, %vector.memcheck, %omp.inner.for.body.lr.ph
  %indvars.iv.ph = phi i64 [ %6, %vector.memcheck ], [ %6, %omp.inner.for.body.lr.ph ], [ %ind.end, %middle.block ]
  %25 = add i32 %cond, 1
  %26 = trunc i64 %indvars.iv.ph to i32
  %27 = sub i32 %25, %26
  %28 = sub i32 %cond, %26
  %xtraiter = and i32 %27, 3
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %omp.inner.for.body.prol.loopexit, label %omp.inner.for.body.prol

omp.inner.for.body.prol:                          ; preds = %omp.inner.for.body.preheader, %omp.inner.for.body.prol
  %indvars.iv.prol = phi i64 [ %indvars.iv.next.prol, %omp.inner.for.body.prol ], [ %indvars.iv.ph, %omp.inner.for.body.preheader ]
  %prol.iter = phi i32 [ %prol.iter.next, %omp.inner.for.body.prol ], [ 0, %omp.inner.for.body.preheader ]
  %29 = load double, ptr %3, align 8
  %arrayidx.prol = getelementptr inbounds double, ptr %4, i64 %indvars.iv.prol
  %30 = load double, ptr %arrayidx.prol, align 8
  %mul6.prol = fmul double %29, %30
  %arrayidx8.prol = getelementptr inbounds double, ptr %5, i64 %indvars.iv.prol
  store double %mul6.prol, ptr %arrayidx8.prol, align 8
  %indvars.iv.next.prol = add nsw i64 %indvars.iv.prol, 1
  %prol.iter.next = add i32 %prol.iter, 1
  %prol.iter.cmp.not = icmp eq i32 %prol.iter.next, %xtraiter
  br i1 %prol.iter.cmp.not, label %omp.inner.for.body.prol.loopexit, label %omp.inner.for.body.prol

omp.inner.for.body.prol.loopexit:                 ; preds = %omp.inner.for.body.prol, %omp.inner.for.body.preheader
  %indvars.iv.unr = phi i64 [ %indvars.iv.ph, %omp.inner.for.body.preheader ], [ %indvars.iv.next.prol, %omp.inner.for.body.prol ]
  %31 = icmp ult i32 %28, 3
  br i1 %31, label %omp.loop.exit, label %omp.inner.for.body

omp.inner.for.body:                               ; preds = %omp.inner.for.body.prol.loopexit, %omp.inner.for.body
  %indvars.iv = phi i64 [ %indvars.iv.next.3, %omp.inner.for.body ], [ %indvars.iv.unr, %omp.inner.for.body.prol.loopexit ]
  %32 = load double, ptr %3, align 8
  %arrayidx = getelementptr inbounds double, ptr %4, i64 %indvars.iv
  %33 = load double, ptr %arrayidx, align 8
  %mul6 = fmul double %32, %33
  %arrayidx8 = getelementptr inbounds double, ptr %5, i64 %indvars.iv
  store double %mul6, ptr %arrayidx8, align 8
  %indvars.iv.next = add nsw i64 %indvars.iv, 1
  %34 = load double, ptr %3, align 8
  %arrayidx.1 = getelementptr inbounds double, ptr %4, i64 %indvars.iv.next
  %35 = load double, ptr %arrayidx.1, align 8
  %mul6.1 = fmul double %34, %35
  %arrayidx8.1 = getelementptr inbounds double, ptr %5, i64 %indvars.iv.next
  store double %mul6.1, ptr %arrayidx8.1, align 8
  %indvars.iv.next.1 = add nsw i64 %indvars.iv, 2
  %36 = load double, ptr %3, align 8
  %arrayidx.2 = getelementptr inbounds double, ptr %4, i64 %indvars.iv.next.1
  %37 = load double, ptr %arrayidx.2, align 8
  %mul6.2 = fmul double %36, %37
  %arrayidx8.2 = getelementptr inbounds double, ptr %5, i64 %indvars.iv.next.1
  store double %mul6.2, ptr %arrayidx8.2, align 8
  %indvars.iv.next.2 = add nsw i64 %indvars.iv, 3
  %38 = load double, ptr %3, align 8
  %arrayidx.3 = getelementptr inbounds double, ptr %4, i64 %indvars.iv.next.2
  %39 = load double, ptr %arrayidx.3, align 8
  %mul6.3 = fmul double %38, %39
  %arrayidx8.3 = getelementptr inbounds double, ptr %5, i64 %indvars.iv.next.2
  store double %mul6.3, ptr %arrayidx8.3, align 8
  %indvars.iv.next.3 = add nsw i64 %indvars.iv, 4
  %lftr.wideiv.3 = trunc i64 %indvars.iv.next.3 to i32
  %exitcond.not.3 = icmp eq i32 %7, %lftr.wideiv.3
  br i1 %exitcond.not.3, label %omp.loop.exit, label %omp.inner.for.body

omp.loop.exit:                                    ; preds = %omp.inner.for.body.prol.loopexit, %omp.inner.for.body, %middle.block, %omp.precond.then
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %.pre)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %.omp.is_last)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %.omp.stride)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %.omp.ub)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %.omp.lb)
  br label %omp.precond.end

omp.precond.end:                                  ; preds = %omp.loop.exit, %entry
  call void @__kmpc_barrier(ptr nonnull @2, i32 %.pre)
  call void @__kmpc_critical(ptr nonnull @3, i32 %.pre, ptr nonnull @.gomp_critical_user_.var)
  %40 = load ptr, ptr %y, align 8
  %41 = load double, ptr %40, align 8
  %42 = load ptr, ptr %s, align 8
  %43 = load double, ptr %42, align 8
  %44 = call double @llvm.fmuladd.f64(double %41, double %41, double %43)
  store double %44, ptr %42, align 8
  call void @__kmpc_end_critical(ptr nonnull @3, i32 %.pre, ptr nonnull @.gomp_critical_user_.var)
  ret void
}

declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)

declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr

declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr

declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr

declare void @__kmpc_critical(ptr, i32, ptr) local_unnamed_addr

declare void @__kmpc_end_critical(ptr, i32, ptr) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr

define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %y, ptr noundef %dy, ptr noundef %a, ptr noundef %da, ptr noundef %s, ptr noundef %ds, i32 noundef %n) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @scale, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %0, ptr noundef %y, ptr noundef %dy, i32 noundef %0, ptr noundef %a, ptr noundef %da, i32 noundef %0, ptr noundef %s, ptr noundef %ds, i32 noundef %n)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

declare i32 @llvm.smin.i32(i32, i32)



