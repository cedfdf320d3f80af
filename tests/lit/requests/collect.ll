; adcc-opt runs the AD pass on IR: requests are collected and printed.
; RUN: not adcc-opt -passes=adcc-print-requests %s -o /dev/null 2>&1 | FileCheck %s
; RUN: adcc-opt -passes=verify %s | FileCheck %s --check-prefix=UNCHANGED
; CHECK: adcc: request: forward mode of 'square' (width 1) requested in 'tangent' at t.c:7:10
; CHECK: error: t.c:7:10: in function tangent double (double): forward mode of 'square' is not implemented yet
; UNCHANGED: call double (ptr, ...) @__enzyme_fwddiff(ptr @square

define double @square(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @tangent(double %x) !dbg !5 {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0), !dbg !8
  ret double %d
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: NoDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "tangent", scope: !1, file: !1, line: 6, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 7, column: 10, scope: !5)
