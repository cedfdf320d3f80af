; Enzyme's annotations (`annotate("enzyme_...")`, and adcc's frontend turns
; Enzyme's attributes into the same) become the registrations the AD engine
; reads, and leave llvm.global.annotations; the program's own annotations
; stay. An unknown `enzyme_*` annotation is an error at its file and line.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s
; RUN: sed 's/enzyme_nofree/enzyme_nofrex/' %s > %t.ll
; RUN: %expect-exit 1 adcc-opt -passes=adcc %t.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

; CHECK-DAG: @__enzyme_inactivefn_adcc_annotation = internal constant [1 x ptr] [ptr @stop]
; CHECK-DAG: @__enzyme_inactive_global_adcc_annotation = internal constant [1 x ptr] [ptr @cache]
; CHECK-DAG: @__enzyme_function_like_adcc_annotation = internal constant [2 x ptr] [ptr @my_log1p, ptr @.adcc.function_like]
; CHECK-DAG: @.adcc.function_like = private unnamed_addr constant [6 x i8] c"log1p\00"
; CHECK-DAG: @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @own,
; CHECK-DAG: @llvm.compiler.used = appending global
; CHECK: define double @twice(double %x) [[ATTRS:#[0-9]+]]
; CHECK: attributes [[ATTRS]] = { nofree }
; ERR: f.c:7: unknown Enzyme annotation 'enzyme_nofrex': adcc does not know what it does to derivatives

@cache = global double 0.0
@.inactive = private unnamed_addr constant [16 x i8] c"enzyme_inactive\00", section "llvm.metadata"
@.like = private unnamed_addr constant [27 x i8] c"enzyme_function_like=log1p\00", section "llvm.metadata"
@.nofree = private unnamed_addr constant [14 x i8] c"enzyme_nofree\00", section "llvm.metadata"
@.hint = private unnamed_addr constant [15 x i8] c"enzyme_nocache\00", section "llvm.metadata"
@.own = private unnamed_addr constant [4 x i8] c"own\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"f.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [6 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @stop, ptr @.inactive, ptr @.file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @cache, ptr @.inactive, ptr @.file, i32 4, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @my_log1p, ptr @.like, ptr @.file, i32 5, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @own, ptr @.own, ptr @.file, i32 6, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @twice, ptr @.nofree, ptr @.file, i32 7, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @twice, ptr @.hint, ptr @.file, i32 8, ptr null }
], section "llvm.metadata"

define double @stop(double %x) {
  ret double %x
}

declare double @log1p(double)

define double @my_log1p(double %x) {
  %y = call double @log1p(double %x)
  ret double %y
}

define double @own(double %x) {
  ret double %x
}

define double @twice(double %x) {
  %y = fmul double %x, 2.0
  ret double %y
}
