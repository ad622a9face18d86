; A loop in an OpenMP region that starts where no chunk of the runtime's
; starts: at twice the stride the runtime wrote (`st + st`, one load added
; to itself), the same value in every thread, so every thread runs the
; same iterations and reads the same x[i]. It is no worksharing loop: the
; reads of x stay shared, their adjoints atomic. (The analysis once took a
; value it had seen on a failed try for a chunk start.)
; RUN: %opt_enzyme -passes=enzyme -enzyme-print-parallel-reads -S %s -o %t 2> %t.reads
; RUN: FileCheck %s < %t.reads

; CHECK-LABEL: parallel reads of scale.omp_outlined.enzyme.prep: 0 worksharing loop(s)
; CHECK-NEXT: privatized: {{.*}}load double, ptr %4
; CHECK-NEXT: shared: {{.*}}load double

; ModuleID = 'ir.c'
source_filename = "ir.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [17 x i8] c";t.c;scale;4;1;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 16, ptr @0 }, align 8
@2 = private unnamed_addr constant [18 x i8] c";t.c;scale;4;25;;\00", align 1
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 17, ptr @2 }, align 8
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 16, ptr @0 }, align 8
@5 = private unnamed_addr constant [19 x i8] c";t.c;stencil;9;1;;\00", align 1
@6 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 18, ptr @5 }, align 8
@7 = private unnamed_addr constant [20 x i8] c";t.c;stencil;9;25;;\00", align 1
@8 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 19, ptr @7 }, align 8
@9 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 18, ptr @5 }, align 8
@10 = private unnamed_addr constant [20 x i8] c";t.c;product;14;1;;\00", align 1
@11 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 19, ptr @10 }, align 8
@12 = private unnamed_addr constant [21 x i8] c";t.c;product;14;25;;\00", align 1
@13 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 20, ptr @12 }, align 8
@14 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 19, ptr @10 }, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local void @scale(ptr noundef %0, ptr noundef %1, double noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca double, align 8
  %8 = alloca i32, align 4
  store ptr %0, ptr %5, align 8, !tbaa !10
  store ptr %1, ptr %6, align 8, !tbaa !10
  store double %2, ptr %7, align 8, !tbaa !14
  store i32 %3, ptr %8, align 4, !tbaa !16
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 4, ptr nonnull @scale.omp_outlined, ptr nonnull %8, ptr nonnull %6, ptr nonnull %7, ptr nonnull %5)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @scale.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %5) #1 {
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = load i32, ptr %2, align 4, !tbaa !16
  %12 = icmp sgt i32 %11, 0
  br i1 %12, label %13, label %37

13:                                               ; preds = %6
  %14 = add nsw i32 %11, -1
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #3
  store i32 0, ptr %7, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #3
  store i32 %14, ptr %8, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #3
  store i32 1, ptr %9, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %10) #3
  store i32 0, ptr %10, align 4, !tbaa !16
  %15 = load i32, ptr %0, align 4, !tbaa !16
  call void @__kmpc_for_static_init_4(ptr nonnull @1, i32 %15, i32 34, ptr nonnull %10, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9, i32 1, i32 1)
  %16 = load i32, ptr %8, align 4
  %17 = call i32 @llvm.smin.i32(i32 %16, i32 %14)
  store i32 %17, ptr %8, align 4, !tbaa !16
  %18 = load i32, ptr %7, align 4, !tbaa !16
  %19 = icmp sgt i32 %18, %17
  br i1 %19, label %36, label %20

20:                                               ; preds = %13
  %21 = load ptr, ptr %5, align 8, !tbaa !10
  %22 = load ptr, ptr %3, align 8, !tbaa !10
  %stride = load i32, ptr %9, align 4, !tbaa !16
  %twice = add i32 %stride, %stride
  %23 = sext i32 %twice to i64
  %24 = add nsw i32 %17, 1
  br label %25

25:                                               ; preds = %25, %20
  %26 = phi i64 [ %23, %20 ], [ %33, %25 ]
  %27 = load double, ptr %4, align 8, !tbaa !14
  %28 = getelementptr inbounds double, ptr %21, i64 %26
  %29 = load double, ptr %28, align 8, !tbaa !14
  %30 = fmul double %27, %29
  %31 = fmul double %29, %30
  %32 = getelementptr inbounds double, ptr %22, i64 %26
  store double %31, ptr %32, align 8, !tbaa !14
  %33 = add nsw i64 %26, 1
  %34 = trunc i64 %33 to i32
  %35 = icmp eq i32 %24, %34
  br i1 %35, label %36, label %25

36:                                               ; preds = %25, %13
  call void @__kmpc_for_static_fini(ptr nonnull @3, i32 %15)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #3
  br label %37

37:                                               ; preds = %36, %6
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #3

; Function Attrs: nounwind
declare !callback !18 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #3

; Function Attrs: nounwind uwtable
define dso_local void @stencil(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  store ptr %0, ptr %4, align 8, !tbaa !10
  store ptr %1, ptr %5, align 8, !tbaa !10
  store i32 %2, ptr %6, align 4, !tbaa !16
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @9, i32 3, ptr nonnull @stencil.omp_outlined, ptr nonnull %6, ptr nonnull %5, ptr nonnull %4)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @stencil.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4) #1 {
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = load i32, ptr %2, align 4, !tbaa !16
  %11 = icmp sgt i32 %10, 2
  br i1 %11, label %12, label %36

12:                                               ; preds = %5
  %13 = add nsw i32 %10, -3
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %6) #3
  store i32 0, ptr %6, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #3
  store i32 %13, ptr %7, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #3
  store i32 1, ptr %8, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #3
  store i32 0, ptr %9, align 4, !tbaa !16
  %14 = load i32, ptr %0, align 4, !tbaa !16
  call void @__kmpc_for_static_init_4(ptr nonnull @6, i32 %14, i32 34, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8, i32 1, i32 1)
  %15 = load i32, ptr %7, align 4
  %16 = call i32 @llvm.smin.i32(i32 %15, i32 %13)
  store i32 %16, ptr %7, align 4, !tbaa !16
  %17 = load i32, ptr %6, align 4, !tbaa !16
  %18 = icmp sgt i32 %17, %16
  br i1 %18, label %35, label %19

19:                                               ; preds = %12
  %20 = load ptr, ptr %4, align 8, !tbaa !10
  %21 = load ptr, ptr %3, align 8, !tbaa !10
  %22 = sext i32 %17 to i64
  %23 = add nsw i32 %16, 1
  br label %24

24:                                               ; preds = %24, %19
  %25 = phi i64 [ %22, %19 ], [ %26, %24 ]
  %26 = add nsw i64 %25, 1
  %27 = getelementptr inbounds double, ptr %20, i64 %25
  %28 = load double, ptr %27, align 8, !tbaa !14
  %29 = getelementptr i8, ptr %27, i64 16
  %30 = load double, ptr %29, align 8, !tbaa !14
  %31 = fmul double %28, %30
  %32 = getelementptr inbounds double, ptr %21, i64 %26
  store double %31, ptr %32, align 8, !tbaa !14
  %33 = trunc i64 %26 to i32
  %34 = icmp eq i32 %23, %33
  br i1 %34, label %35, label %24

35:                                               ; preds = %24, %12
  call void @__kmpc_for_static_fini(ptr nonnull @8, i32 %14)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %6) #3
  br label %36

36:                                               ; preds = %35, %5
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local void @product(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  store ptr %0, ptr %5, align 8, !tbaa !10
  store ptr %1, ptr %6, align 8, !tbaa !10
  store ptr %2, ptr %7, align 8, !tbaa !10
  store i32 %3, ptr %8, align 4, !tbaa !16
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @14, i32 4, ptr nonnull @product.omp_outlined, ptr nonnull %8, ptr nonnull %7, ptr nonnull %5, ptr nonnull %6)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @product.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %5) #1 {
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = load i32, ptr %2, align 4, !tbaa !16
  %12 = icmp sgt i32 %11, 0
  br i1 %12, label %13, label %38

13:                                               ; preds = %6
  %14 = add nsw i32 %11, -1
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #3
  store i32 0, ptr %7, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #3
  store i32 %14, ptr %8, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #3
  store i32 1, ptr %9, align 4, !tbaa !16
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %10) #3
  store i32 0, ptr %10, align 4, !tbaa !16
  %15 = load i32, ptr %0, align 4, !tbaa !16
  call void @__kmpc_for_static_init_4(ptr nonnull @11, i32 %15, i32 34, ptr nonnull %10, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9, i32 1, i32 1)
  %16 = load i32, ptr %8, align 4
  %17 = call i32 @llvm.smin.i32(i32 %16, i32 %14)
  store i32 %17, ptr %8, align 4, !tbaa !16
  %18 = load i32, ptr %7, align 4, !tbaa !16
  %19 = icmp sgt i32 %18, %17
  br i1 %19, label %37, label %20

20:                                               ; preds = %13
  %21 = load ptr, ptr %4, align 8, !tbaa !10
  %22 = load ptr, ptr %5, align 8, !tbaa !10
  %23 = load ptr, ptr %3, align 8, !tbaa !10
  %24 = sext i32 %18 to i64
  %25 = add nsw i32 %17, 1
  br label %26

26:                                               ; preds = %26, %20
  %27 = phi i64 [ %24, %20 ], [ %34, %26 ]
  %28 = getelementptr inbounds double, ptr %21, i64 %27
  %29 = load double, ptr %28, align 8, !tbaa !14
  %30 = getelementptr inbounds double, ptr %22, i64 %27
  %31 = load double, ptr %30, align 8, !tbaa !14
  %32 = fmul double %29, %31
  %33 = getelementptr inbounds double, ptr %23, i64 %27
  store double %32, ptr %33, align 8, !tbaa !14
  %34 = add nsw i64 %27, 1
  %35 = trunc i64 %34 to i32
  %36 = icmp eq i32 %25, %35
  br i1 %36, label %37, label %26

37:                                               ; preds = %26, %13
  call void @__kmpc_for_static_fini(ptr nonnull @13, i32 %15)
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %10) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #3
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #3
  br label %38

38:                                               ; preds = %37, %6
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local double @d(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, double noundef %6, i32 noundef %7) local_unnamed_addr #0 {
  %9 = load i32, ptr @enzyme_dup, align 4, !tbaa !16
  %10 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @stencil, i32 noundef %9, ptr noundef %0, ptr noundef %1, i32 noundef %9, ptr noundef %2, ptr noundef %3, i32 noundef %7) #3
  %11 = load i32, ptr @enzyme_dup, align 4, !tbaa !16
  %12 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @product, i32 noundef %11, ptr noundef %0, ptr noundef %1, i32 noundef %11, ptr noundef %4, ptr noundef %5, i32 noundef %11, ptr noundef %2, ptr noundef %3, i32 noundef %7) #3
  %13 = load i32, ptr @enzyme_dup, align 4, !tbaa !16
  %14 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @scale, i32 noundef %13, ptr noundef %0, ptr noundef %1, i32 noundef %13, ptr noundef %2, ptr noundef %3, double noundef %6, i32 noundef %7) #3
  ret double %14
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #5

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { nounwind }
attributes #4 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = !{i32 7, !"Dwarf Version", i32 5}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"openmp", i32 51}
!4 = !{i32 8, !"PIC Level", i32 2}
!5 = !{i32 7, !"PIE Level", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = !{i32 1, !"ThinLTO", i32 0}
!8 = !{i32 1, !"EnableSplitLTOUnit", i32 1}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"any pointer", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"double", !12, i64 0}
!16 = !{!17, !17, i64 0}
!17 = !{!"int", !12, i64 0}
!18 = !{!19}
!19 = !{i64 2, i64 -1, i64 -1, i1 true}
