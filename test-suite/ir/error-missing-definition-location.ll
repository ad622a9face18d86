; With debug info, the error is reported at the __enzyme_autodiff call's
; location and names the location of the call that cannot be differentiated.
; RUN: not %opt_enzyme -passes=enzyme -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @ext_model(double)

define double @f(double %x) !dbg !5 {
  %y = call double @ext_model(double %x), !dbg !8
  ret double %y, !dbg !8
}

define double @test(double %x) !dbg !9 {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x), !dbg !10
  ret double %g, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "model.c", directory: "/src")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 2, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !2, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!8 = !DILocation(line: 4, column: 10, scope: !5)
!9 = distinct !DISubprogram(name: "test", scope: !1, file: !1, line: 8, type: !2, scopeLine: 8, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 9, column: 12, scope: !9)

; CHECK: error: model.c:9:12: in function test {{[^:]*}}: cannot differentiate 'f': cannot differentiate a call to 'ext_model': {{.*}}(__enzyme_inactivefn) (the operation is at model.c:4:10)
