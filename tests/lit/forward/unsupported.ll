; What cannot be differentiated is a located error, never an abort: an
; external function without body or rule, inline assembly, a store of a
; derivative into a global defined in another file (no shadow here).
; RUN: not adcc-opt -passes=adcc %s -o /dev/null 2>&1 | FileCheck %s
; CHECK-DAG: t.c:3:7: in function fwddiffe_ext double (double, double): cannot differentiate 'ext' in forward mode: the external function 'mystery' has no body and no derivative rule
; CHECK-DAG: in function fwddiffe_asm double (double, double): cannot differentiate 'asm' in forward mode: inline assembly
; CHECK-DAG: cannot differentiate 'global' in forward mode: a value with a derivative is stored into the global variable 'G', which has no shadow: it is defined in another file
; CHECK-NOT: Stack dump

@G = external global double
declare double @__enzyme_fwddiff(ptr, ...)
declare double @mystery(double)

define double @ext(double %x) !dbg !5 {
  %r = call double @mystery(double %x), !dbg !8
  ret double %r
}

define double @asm(double %x) {
  %r = call double asm "nop", "=x,x"(double %x)
  ret double %r
}

define double @global(double %x) {
  store double %x, ptr @G
  ret double %x
}

define double @request(double %x) {
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @ext, double %x, double 1.0)
  %b = call double (ptr, ...) @__enzyme_fwddiff(ptr @asm, double %x, double 1.0)
  %c = call double (ptr, ...) @__enzyme_fwddiff(ptr @global, double %x, double 1.0)
  %s = fadd double %a, %b
  %t = fadd double %s, %c
  ret double %t
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: NoDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "ext", scope: !1, file: !1, line: 2, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, column: 7, scope: !5)
