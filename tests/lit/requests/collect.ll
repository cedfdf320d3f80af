; adcc-opt runs the AD pass on IR: requests are collected, printed, and
; replaced by calls to the generated derivative.
; RUN: adcc-opt -passes=adcc-print-requests %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REQ < %t.err
; REQ: adcc: request: forward mode of 'square' (width 1) requested in 'tangent' at t.c:7:10
; CHECK-NOT: @__enzyme_fwddiff
; CHECK: define double @tangent(double %x)
; CHECK-NEXT: call double @fwddiffe_square(double %x, double 1.000000e+00)
; CHECK: define internal double @fwddiffe_square(double %x, double %x.shadow)

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
