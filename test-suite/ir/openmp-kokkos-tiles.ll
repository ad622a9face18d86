; Kokkos' rank-2 MDRangePolicy on the OpenMP backend (Analysis/
; ParallelLoopReads.h, tile reads): a worksharing loop over tile numbers
; calls the tile function, which Kokkos names
; HostIterateTile<MDRangePolicy<Rank<2>>, ...>::operator()(tile) and which
; visits the tile's points (off0 + i0, off1 + i1) in two loops. From
; enzyme-clang -fenzyme -fopenmp -O2 (the module the engine is given) of
;   own_point:  b[i*s + j] = a[i*s + j] * a[i*s + j]
;   neighbours: b[i*s + j] = a[i*s + j] * a[i*s + j + 1]
; with the tile functions named as Kokkos' (asm labels) and `int i, j`
; truncated from the 64-bit points. own_point's read is exclusive if
; distinct points read distinct elements: the forward pass checks each
; point (its column within the row's stride, no truncation changed it) and
; reports to the region whether all passed; the reverse asks once and adds
; plainly only then. neighbours reads each element at two points: atomics.
; RUN: %opt_enzyme -passes=enzyme -enzyme-print-parallel-reads -S %s -o %t 2> %t.reads
; RUN: FileCheck %s --check-prefix=READS < %t.reads
; RUN: FileCheck %s < %t

; READS-LABEL: parallel reads of scale.omp_outlined.enzyme.prep: 1 worksharing loop(s)
; READS-NEXT: exclusive if the team's points pass: {{.*}}load double
; READS-LABEL: parallel reads of stencil.omp_outlined.enzyme.prep: 1 worksharing loop(s)
; READS-NEXT: shared: {{.*}}load double
; READS-NEXT: shared: {{.*}}load double

; The forward pass: the tile inlined into the body, a flag of failed
; points set at the read, reported once as the body returns.
; CHECK-LABEL: define internal void @scale.omp_outlined.aug(
; CHECK: %tile.failed = alloca i8
; CHECK-NOT: call {{.*}}HostIterateTile
; CHECK: %tile.point.apart{{.*}} = or i1
; CHECK: call void @__enzyme_rt_omp_plain_adjoints_report(i32
; CHECK: ret void

; The reverse: one question to the run-time, then a plain or an atomic
; addition by its answer.
; CHECK-LABEL: define internal void @scale.omp_outlined.rev(
; CHECK: call i32 @__enzyme_rt_omp_plain_adjoints_allowed()
; CHECK: br i1 %team.plain{{[.a-z]*}}, label %{{[0-9]+}}, label %{{[0-9]+}}
; CHECK-DAG: atomicrmw fadd ptr %.shadow.re, double
; CHECK-DAG: store double %{{[0-9]+}}, ptr %.shadow.re,
; CHECK: ret void

; CHECK-LABEL: define internal void @stencil.omp_outlined.aug(
; CHECK-NOT: plain_adjoints_report
; CHECK: ret void
; CHECK-LABEL: define internal void @stencil.omp_outlined.rev(
; CHECK-NOT: plain_adjoints_allowed
; CHECK: atomicrmw fadd
; CHECK: atomicrmw fadd
; CHECK: ret void

; ModuleID = 'tiles.c'
source_filename = "tiles.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [22 x i8] c";tiles.c;scale;38;1;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 21, ptr @0 }, align 8
@2 = private unnamed_addr constant [23 x i8] c";tiles.c;scale;38;42;;\00", align 1
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @2 }, align 8
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 21, ptr @0 }, align 8
@5 = private unnamed_addr constant [24 x i8] c";tiles.c;stencil;43;1;;\00", align 1
@6 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 23, ptr @5 }, align 8
@7 = private unnamed_addr constant [25 x i8] c";tiles.c;stencil;43;42;;\00", align 1
@8 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 24, ptr @7 }, align 8
@9 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 23, ptr @5 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree noinline norecurse nosync nounwind memory(readwrite, inaccessiblemem: none) uwtable
define dso_local void @"_ZNK6Kokkos4Impl15HostIterateTileINS_13MDRangePolicyIJNS_4RankILj2ELNS_7IterateE0ELS4_0EEEEEEZ5scaleRKNS_4ViewIPPdJEEESC_E3$_0vvvEclImEEvT_"(ptr nocapture noundef readonly %0, i64 noundef %1) local_unnamed_addr #0 !dbg !12 {
  %3 = getelementptr inbounds i8, ptr %0, i64 48, !dbg !15
  %4 = getelementptr inbounds i8, ptr %0, i64 56, !dbg !15
  %5 = load i64, ptr %4, align 8, !dbg !15, !tbaa !16
  %6 = urem i64 %1, %5, !dbg !15
  %7 = getelementptr inbounds i8, ptr %0, i64 32, !dbg !15
  %8 = getelementptr inbounds i8, ptr %0, i64 40, !dbg !15
  %9 = load i64, ptr %8, align 8, !dbg !15, !tbaa !16
  %10 = mul nsw i64 %9, %6, !dbg !15
  %11 = getelementptr inbounds i8, ptr %0, i64 8, !dbg !15
  %12 = load i64, ptr %11, align 8, !dbg !15, !tbaa !16
  %13 = add nsw i64 %10, %12, !dbg !15
  %14 = udiv i64 %1, %5, !dbg !15
  %15 = load i64, ptr %3, align 8, !dbg !15, !tbaa !16
  %16 = urem i64 %14, %15, !dbg !15
  %17 = load i64, ptr %7, align 8, !dbg !15, !tbaa !16
  %18 = mul nsw i64 %17, %16, !dbg !15
  %19 = load i64, ptr %0, align 8, !dbg !15, !tbaa !16
  %20 = add nsw i64 %18, %19, !dbg !15
  %21 = getelementptr inbounds i8, ptr %0, i64 16, !dbg !15
  %22 = load i64, ptr %21, align 8, !dbg !15, !tbaa !16
  %23 = sub nsw i64 %22, %20, !dbg !15
  %24 = tail call i64 @llvm.smin.i64(i64 %23, i64 %17), !dbg !15
  %25 = getelementptr inbounds i8, ptr %0, i64 24, !dbg !15
  %26 = load i64, ptr %25, align 8, !dbg !15, !tbaa !16
  %27 = sub nsw i64 %26, %13, !dbg !15
  %28 = tail call i64 @llvm.smin.i64(i64 %27, i64 %9), !dbg !15
  %29 = icmp sgt i64 %24, 0, !dbg !15
  br i1 %29, label %30, label %45, !dbg !15

30:                                               ; preds = %2
  %31 = icmp sgt i64 %28, 0
  %32 = getelementptr inbounds i8, ptr %0, i64 64
  %33 = getelementptr inbounds i8, ptr %0, i64 80
  %34 = getelementptr inbounds i8, ptr %0, i64 72
  br label %35, !dbg !15

35:                                               ; preds = %30, %46
  %36 = phi i64 [ 0, %30 ], [ %47, %46 ]
  br i1 %31, label %37, label %46, !dbg !15

37:                                               ; preds = %35
  %38 = add nsw i64 %36, %20
  %39 = load ptr, ptr %32, align 8, !tbaa !20
  %40 = shl i64 %38, 32
  %41 = ashr exact i64 %40, 32
  %42 = load i64, ptr %33, align 8, !tbaa !23
  %43 = mul nsw i64 %42, %41
  %44 = load ptr, ptr %34, align 8, !tbaa !24
  br label %49, !dbg !15

45:                                               ; preds = %46, %2
  ret void, !dbg !25

46:                                               ; preds = %49, %35
  %47 = add nuw nsw i64 %36, 1, !dbg !15
  %48 = icmp slt i64 %47, %24, !dbg !15
  br i1 %48, label %35, label %45, !dbg !15, !llvm.loop !26

49:                                               ; preds = %37, %49
  %50 = phi i64 [ 0, %37 ], [ %59, %49 ]
  %51 = add nsw i64 %50, %13, !dbg !15
  %52 = shl i64 %51, 32, !dbg !15
  %53 = ashr exact i64 %52, 32, !dbg !15
  %54 = add nsw i64 %43, %53, !dbg !15
  %55 = getelementptr inbounds double, ptr %39, i64 %54, !dbg !15
  %56 = load double, ptr %55, align 8, !dbg !15, !tbaa !28
  %57 = fmul double %56, %56, !dbg !15
  %58 = getelementptr inbounds double, ptr %44, i64 %54, !dbg !15
  store double %57, ptr %58, align 8, !dbg !15, !tbaa !28
  %59 = add nuw nsw i64 %50, 1, !dbg !15
  %60 = icmp slt i64 %59, %28, !dbg !15
  br i1 %60, label %49, label %46, !dbg !15, !llvm.loop !30
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nofree noinline norecurse nosync nounwind memory(readwrite, inaccessiblemem: none) uwtable
define dso_local void @"_ZNK6Kokkos4Impl15HostIterateTileINS_13MDRangePolicyIJNS_4RankILj2ELNS_7IterateE0ELS4_0EEEEEEZ5scaleRKNS_4ViewIPPdJEEESC_E3$_1vvvEclImEEvT_"(ptr nocapture noundef readonly %0, i64 noundef %1) local_unnamed_addr #0 !dbg !31 {
  %3 = getelementptr inbounds i8, ptr %0, i64 48, !dbg !32
  %4 = getelementptr inbounds i8, ptr %0, i64 56, !dbg !32
  %5 = load i64, ptr %4, align 8, !dbg !32, !tbaa !16
  %6 = urem i64 %1, %5, !dbg !32
  %7 = getelementptr inbounds i8, ptr %0, i64 32, !dbg !32
  %8 = getelementptr inbounds i8, ptr %0, i64 40, !dbg !32
  %9 = load i64, ptr %8, align 8, !dbg !32, !tbaa !16
  %10 = mul nsw i64 %9, %6, !dbg !32
  %11 = getelementptr inbounds i8, ptr %0, i64 8, !dbg !32
  %12 = load i64, ptr %11, align 8, !dbg !32, !tbaa !16
  %13 = add nsw i64 %10, %12, !dbg !32
  %14 = udiv i64 %1, %5, !dbg !32
  %15 = load i64, ptr %3, align 8, !dbg !32, !tbaa !16
  %16 = urem i64 %14, %15, !dbg !32
  %17 = load i64, ptr %7, align 8, !dbg !32, !tbaa !16
  %18 = mul nsw i64 %17, %16, !dbg !32
  %19 = load i64, ptr %0, align 8, !dbg !32, !tbaa !16
  %20 = add nsw i64 %18, %19, !dbg !32
  %21 = getelementptr inbounds i8, ptr %0, i64 16, !dbg !32
  %22 = load i64, ptr %21, align 8, !dbg !32, !tbaa !16
  %23 = sub nsw i64 %22, %20, !dbg !32
  %24 = tail call i64 @llvm.smin.i64(i64 %23, i64 %17), !dbg !32
  %25 = getelementptr inbounds i8, ptr %0, i64 24, !dbg !32
  %26 = load i64, ptr %25, align 8, !dbg !32, !tbaa !16
  %27 = sub nsw i64 %26, %13, !dbg !32
  %28 = tail call i64 @llvm.smin.i64(i64 %27, i64 %9), !dbg !32
  %29 = icmp sgt i64 %24, 0, !dbg !32
  br i1 %29, label %30, label %45, !dbg !32

30:                                               ; preds = %2
  %31 = icmp sgt i64 %28, 0
  %32 = getelementptr inbounds i8, ptr %0, i64 64
  %33 = getelementptr inbounds i8, ptr %0, i64 80
  %34 = getelementptr inbounds i8, ptr %0, i64 72
  br label %35, !dbg !32

35:                                               ; preds = %30, %46
  %36 = phi i64 [ 0, %30 ], [ %47, %46 ]
  br i1 %31, label %37, label %46, !dbg !32

37:                                               ; preds = %35
  %38 = add nsw i64 %36, %20
  %39 = load ptr, ptr %32, align 8, !tbaa !20
  %40 = shl i64 %38, 32
  %41 = ashr exact i64 %40, 32
  %42 = load i64, ptr %33, align 8, !tbaa !23
  %43 = mul nsw i64 %42, %41
  %44 = load ptr, ptr %34, align 8, !tbaa !24
  br label %49, !dbg !32

45:                                               ; preds = %46, %2
  ret void, !dbg !33

46:                                               ; preds = %49, %35
  %47 = add nuw nsw i64 %36, 1, !dbg !32
  %48 = icmp slt i64 %47, %24, !dbg !32
  br i1 %48, label %35, label %45, !dbg !32, !llvm.loop !34

49:                                               ; preds = %37, %49
  %50 = phi i64 [ 0, %37 ], [ %61, %49 ]
  %51 = add nsw i64 %50, %13, !dbg !32
  %52 = shl i64 %51, 32, !dbg !32
  %53 = ashr exact i64 %52, 32, !dbg !32
  %54 = add nsw i64 %43, %53, !dbg !32
  %55 = getelementptr inbounds double, ptr %39, i64 %54, !dbg !32
  %56 = load double, ptr %55, align 8, !dbg !32, !tbaa !28
  %57 = getelementptr i8, ptr %55, i64 8, !dbg !32
  %58 = load double, ptr %57, align 8, !dbg !32, !tbaa !28
  %59 = fmul double %56, %58, !dbg !32
  %60 = getelementptr inbounds double, ptr %44, i64 %54, !dbg !32
  store double %59, ptr %60, align 8, !dbg !32, !tbaa !28
  %61 = add nuw nsw i64 %50, 1, !dbg !32
  %62 = icmp slt i64 %61, %28, !dbg !32
  br i1 %62, label %49, label %46, !dbg !32, !llvm.loop !35
}

; Function Attrs: nounwind uwtable
define dso_local void @scale(ptr noundef %0, i64 noundef %1) #2 !dbg !36 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  store ptr %0, ptr %3, align 8, !tbaa !37
  store i64 %1, ptr %4, align 8, !tbaa !16
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 2, ptr nonnull @scale.omp_outlined, ptr nonnull %4, ptr nonnull %3), !dbg !38
  ret void, !dbg !39
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @scale.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3) #3 !dbg !40 {
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  %8 = alloca i32, align 4
  %9 = load i64, ptr %2, align 8, !dbg !41, !tbaa !16
  %10 = icmp eq i64 %9, 0, !dbg !42
  br i1 %10, label %26, label %11, !dbg !43

11:                                               ; preds = %4
  %12 = add i64 %9, -1, !dbg !42
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %5) #4, !dbg !43
  store i64 0, ptr %5, align 8, !dbg !44, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %6) #4, !dbg !43
  store i64 %12, ptr %6, align 8, !dbg !44, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %7) #4, !dbg !43
  store i64 1, ptr %7, align 8, !dbg !44, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #4, !dbg !43
  store i32 0, ptr %8, align 4, !dbg !44, !tbaa !45
  %13 = load i32, ptr %0, align 4, !dbg !43, !tbaa !45
  call void @__kmpc_for_static_init_8u(ptr nonnull @1, i32 %13, i32 34, ptr nonnull %8, ptr nonnull %5, ptr nonnull %6, ptr nonnull %7, i64 1, i64 1), !dbg !43
  %14 = load i64, ptr %6, align 8, !dbg !44
  %15 = call i64 @llvm.umin.i64(i64 %14, i64 %12), !dbg !44
  store i64 %15, ptr %6, align 8, !dbg !44, !tbaa !16
  %16 = load i64, ptr %5, align 8, !dbg !44, !tbaa !16
  %17 = icmp ugt i64 %16, %15, !dbg !42
  br i1 %17, label %25, label %18, !dbg !43

18:                                               ; preds = %11, %18
  %19 = phi i64 [ %21, %18 ], [ %16, %11 ]
  %20 = load ptr, ptr %3, align 8, !dbg !47, !tbaa !37
  call void @"_ZNK6Kokkos4Impl15HostIterateTileINS_13MDRangePolicyIJNS_4RankILj2ELNS_7IterateE0ELS4_0EEEEEEZ5scaleRKNS_4ViewIPPdJEEESC_E3$_0vvvEclImEEvT_"(ptr noundef %20, i64 noundef %19), !dbg !48
  %21 = add nuw i64 %19, 1, !dbg !42
  %22 = load i64, ptr %6, align 8, !dbg !44, !tbaa !16
  %23 = add i64 %22, 1, !dbg !42
  %24 = icmp ult i64 %21, %23, !dbg !42
  br i1 %24, label %18, label %25, !dbg !43, !llvm.loop !49

25:                                               ; preds = %18, %11
  call void @__kmpc_for_static_fini(ptr nonnull @3, i32 %13), !dbg !50
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #4, !dbg !43
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %7) #4, !dbg !43
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %6) #4, !dbg !43
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %5) #4, !dbg !43
  br label %26, !dbg !43

26:                                               ; preds = %25, %4
  ret void, !dbg !51
}

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_8u(ptr, i32, i32, ptr, ptr, ptr, ptr, i64, i64) local_unnamed_addr #4

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #4

; Function Attrs: nounwind
declare !callback !52 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #4

; Function Attrs: nounwind uwtable
define dso_local void @stencil(ptr noundef %0, i64 noundef %1) #2 !dbg !54 {
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  store ptr %0, ptr %3, align 8, !tbaa !37
  store i64 %1, ptr %4, align 8, !tbaa !16
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @9, i32 2, ptr nonnull @stencil.omp_outlined, ptr nonnull %4, ptr nonnull %3), !dbg !55
  ret void, !dbg !56
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @stencil.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3) #3 !dbg !57 {
  %5 = alloca i64, align 8
  %6 = alloca i64, align 8
  %7 = alloca i64, align 8
  %8 = alloca i32, align 4
  %9 = load i64, ptr %2, align 8, !dbg !58, !tbaa !16
  %10 = icmp eq i64 %9, 0, !dbg !59
  br i1 %10, label %26, label %11, !dbg !60

11:                                               ; preds = %4
  %12 = add i64 %9, -1, !dbg !59
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %5) #4, !dbg !60
  store i64 0, ptr %5, align 8, !dbg !61, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %6) #4, !dbg !60
  store i64 %12, ptr %6, align 8, !dbg !61, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %7) #4, !dbg !60
  store i64 1, ptr %7, align 8, !dbg !61, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #4, !dbg !60
  store i32 0, ptr %8, align 4, !dbg !61, !tbaa !45
  %13 = load i32, ptr %0, align 4, !dbg !60, !tbaa !45
  call void @__kmpc_for_static_init_8u(ptr nonnull @6, i32 %13, i32 34, ptr nonnull %8, ptr nonnull %5, ptr nonnull %6, ptr nonnull %7, i64 1, i64 1), !dbg !60
  %14 = load i64, ptr %6, align 8, !dbg !61
  %15 = call i64 @llvm.umin.i64(i64 %14, i64 %12), !dbg !61
  store i64 %15, ptr %6, align 8, !dbg !61, !tbaa !16
  %16 = load i64, ptr %5, align 8, !dbg !61, !tbaa !16
  %17 = icmp ugt i64 %16, %15, !dbg !59
  br i1 %17, label %25, label %18, !dbg !60

18:                                               ; preds = %11, %18
  %19 = phi i64 [ %21, %18 ], [ %16, %11 ]
  %20 = load ptr, ptr %3, align 8, !dbg !62, !tbaa !37
  call void @"_ZNK6Kokkos4Impl15HostIterateTileINS_13MDRangePolicyIJNS_4RankILj2ELNS_7IterateE0ELS4_0EEEEEEZ5scaleRKNS_4ViewIPPdJEEESC_E3$_1vvvEclImEEvT_"(ptr noundef %20, i64 noundef %19), !dbg !63
  %21 = add nuw i64 %19, 1, !dbg !59
  %22 = load i64, ptr %6, align 8, !dbg !61, !tbaa !16
  %23 = add i64 %22, 1, !dbg !59
  %24 = icmp ult i64 %21, %23, !dbg !59
  br i1 %24, label %18, label %25, !dbg !60, !llvm.loop !64

25:                                               ; preds = %18, %11
  call void @__kmpc_for_static_fini(ptr nonnull @8, i32 %13), !dbg !65
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #4, !dbg !60
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %7) #4, !dbg !60
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %6) #4, !dbg !60
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %5) #4, !dbg !60
  br label %26, !dbg !60

26:                                               ; preds = %25, %4
  ret void, !dbg !66
}

; Function Attrs: nounwind uwtable
define dso_local void @grad_scale(ptr noundef %0, ptr noundef %1, i64 noundef %2) local_unnamed_addr #2 !dbg !67 {
  %4 = load i32, ptr @enzyme_dup, align 4, !dbg !68, !tbaa !45
  %5 = load i32, ptr @enzyme_const, align 4, !dbg !69, !tbaa !45
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @scale, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i64 noundef %2) #4, !dbg !70
  ret void, !dbg !71
}

declare !dbg !72 void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #5

; Function Attrs: nounwind uwtable
define dso_local void @grad_stencil(ptr noundef %0, ptr noundef %1, i64 noundef %2) local_unnamed_addr #2 !dbg !73 {
  %4 = load i32, ptr @enzyme_dup, align 4, !dbg !74, !tbaa !45
  %5 = load i32, ptr @enzyme_const, align 4, !dbg !75, !tbaa !45
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @stencil, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i64 noundef %2) #4, !dbg !76
  ret void, !dbg !77
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umin.i64(i64, i64) #6

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #6

attributes #0 = { nofree noinline norecurse nosync nounwind memory(readwrite, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }
attributes #5 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8, !9, !10}
!llvm.ident = !{!11}
!enzyme.compile_done = !{}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "tiles.c", directory: "/tmp", checksumkind: CSK_MD5, checksum: "2dfae730a0aa599476db0e8a798c3f16")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"openmp", i32 51}
!6 = !{i32 8, !"PIC Level", i32 2}
!7 = !{i32 7, !"PIE Level", i32 2}
!8 = !{i32 7, !"uwtable", i32 2}
!9 = !{i32 1, !"ThinLTO", i32 0}
!10 = !{i32 1, !"EnableSplitLTOUnit", i32 1}
!11 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!12 = distinct !DISubprogram(name: "own_point", scope: !1, file: !1, line: 30, type: !13, scopeLine: 30, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{}
!15 = !DILocation(line: 31, column: 3, scope: !12)
!16 = !{!17, !17, i64 0}
!17 = !{!"long", !18, i64 0}
!18 = !{!"omnipotent char", !19, i64 0}
!19 = !{!"Simple C/C++ TBAA"}
!20 = !{!21, !22, i64 64}
!21 = !{!"Tiles", !18, i64 0, !18, i64 16, !18, i64 32, !18, i64 48, !22, i64 64, !22, i64 72, !17, i64 80}
!22 = !{!"any pointer", !18, i64 0}
!23 = !{!21, !17, i64 80}
!24 = !{!21, !22, i64 72}
!25 = !DILocation(line: 32, column: 1, scope: !12)
!26 = distinct !{!26, !15, !15, !27}
!27 = !{!"llvm.loop.mustprogress"}
!28 = !{!29, !29, i64 0}
!29 = !{!"double", !18, i64 0}
!30 = distinct !{!30, !15, !15, !27}
!31 = distinct !DISubprogram(name: "neighbours", scope: !1, file: !1, line: 33, type: !13, scopeLine: 33, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!32 = !DILocation(line: 34, column: 3, scope: !31)
!33 = !DILocation(line: 35, column: 1, scope: !31)
!34 = distinct !{!34, !32, !32, !27}
!35 = distinct !{!35, !32, !32, !27}
!36 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 37, type: !13, scopeLine: 37, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!37 = !{!22, !22, i64 0}
!38 = !DILocation(line: 38, column: 1, scope: !36)
!39 = !DILocation(line: 41, column: 1, scope: !36)
!40 = distinct !DISubprogram(name: "scale.omp_outlined", scope: !1, file: !1, line: 38, type: !13, scopeLine: 38, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!41 = !DILocation(line: 39, column: 33, scope: !40)
!42 = !DILocation(line: 39, column: 3, scope: !40)
!43 = !DILocation(line: 38, column: 1, scope: !40)
!44 = !DILocation(line: 39, column: 8, scope: !40)
!45 = !{!46, !46, i64 0}
!46 = !{!"int", !18, i64 0}
!47 = !DILocation(line: 40, column: 15, scope: !40)
!48 = !DILocation(line: 40, column: 5, scope: !40)
!49 = distinct !{!49, !43, !50}
!50 = !DILocation(line: 38, column: 42, scope: !40)
!51 = !DILocation(line: 40, column: 19, scope: !40)
!52 = !{!53}
!53 = !{i64 2, i64 -1, i64 -1, i1 true}
!54 = distinct !DISubprogram(name: "stencil", scope: !1, file: !1, line: 42, type: !13, scopeLine: 42, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!55 = !DILocation(line: 43, column: 1, scope: !54)
!56 = !DILocation(line: 46, column: 1, scope: !54)
!57 = distinct !DISubprogram(name: "stencil.omp_outlined", scope: !1, file: !1, line: 43, type: !13, scopeLine: 43, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!58 = !DILocation(line: 44, column: 33, scope: !57)
!59 = !DILocation(line: 44, column: 3, scope: !57)
!60 = !DILocation(line: 43, column: 1, scope: !57)
!61 = !DILocation(line: 44, column: 8, scope: !57)
!62 = !DILocation(line: 45, column: 16, scope: !57)
!63 = !DILocation(line: 45, column: 5, scope: !57)
!64 = distinct !{!64, !60, !65}
!65 = !DILocation(line: 43, column: 42, scope: !57)
!66 = !DILocation(line: 45, column: 20, scope: !57)
!67 = distinct !DISubprogram(name: "grad_scale", scope: !1, file: !1, line: 50, type: !13, scopeLine: 50, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!68 = !DILocation(line: 51, column: 36, scope: !67)
!69 = !DILocation(line: 51, column: 55, scope: !67)
!70 = !DILocation(line: 51, column: 3, scope: !67)
!71 = !DILocation(line: 52, column: 1, scope: !67)
!72 = !DISubprogram(name: "__enzyme_autodiff", scope: !1, file: !1, line: 49, type: !13, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!73 = distinct !DISubprogram(name: "grad_stencil", scope: !1, file: !1, line: 53, type: !13, scopeLine: 53, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!74 = !DILocation(line: 54, column: 38, scope: !73)
!75 = !DILocation(line: 54, column: 57, scope: !73)
!76 = !DILocation(line: 54, column: 3, scope: !73)
!77 = !DILocation(line: 55, column: 1, scope: !73)
