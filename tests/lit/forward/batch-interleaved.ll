; Width 4: a local array only read and written as doubles (and zeroed by a
; memset) gets one shadow with the four lanes of each element side by side:
; a GEP scales its offset by 4, a load or store of the array is one
; <4 x double> load or store of the shadow. A callee of the module that
; uses its parameter the same way gets the shadow so (its derivative's key
; says so); an array a callee uses otherwise, or one also accessed as
; another type (a vector), keeps one shadow per lane.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_width = external global i32
@enzyme_const = external global i32
declare [4 x double] @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define double @use(ptr %p) noinline {
  %v = load double, ptr %p
  %s = fmul double %v, 3.0
  ret double %s
}

define double @local(double %x, i64 %i, i64 %j) {
  %a = alloca [8 x [4 x double]], align 16
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 256, i1 false)
  %p = getelementptr [4 x double], ptr %a, i64 %i, i64 1
  %sq = fmul double %x, %x
  store double %sq, ptr %p
  %q = getelementptr i8, ptr %a, i64 32
  %r = getelementptr [4 x double], ptr %q, i64 %j
  %v = load double, ptr %r
  ret double %v
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_local(
; CHECK:      [[S:%.*]] = alloca [1024 x i8], align 32
; CHECK:      [[L0:%.*]] = insertvalue [4 x ptr] poison, ptr [[S]], 0
; CHECK:      getelementptr inbounds i8, ptr [[S]], i64 8
; CHECK:      getelementptr inbounds i8, ptr [[S]], i64 16
; CHECK:      getelementptr inbounds i8, ptr [[S]], i64 24
; CHECK:      call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 256, i1 false)
; CHECK:      call void @llvm.memset.p0.i64(ptr {{.*}}, i8 0, i64 1024, i1 false)
; CHECK:      [[OFF:%.*]] = mul nsw i64 %p.offs, 4
; CHECK:      %p.shadow = getelementptr inbounds i8, ptr {{.*}}, i64 [[OFF]]
; CHECK:      fmul <4 x double>
; CHECK:      store <4 x double> {{.*}}, ptr {{.*}}, align 8
; CHECK:      load <4 x double>, ptr {{.*}}, align 8
; CHECK:      ret [4 x double]

; Passed to a callee that reads it as doubles: side by side there too.
define double @escapes(double %x) {
  %a = alloca [4 x double], align 16
  store double %x, ptr %a
  %v = call double @use(ptr %a)
  ret double %v
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_escapes(
; CHECK:      alloca [128 x i8]
; CHECK:      store <4 x double>
; CHECK:      call { double, [4 x double] } @fwddiffe4_use(
; CHECK:      ret [4 x double]
; CHECK-LABEL: define internal { double, [4 x double] } @fwddiffe4_use(
; CHECK:      load <4 x double>
; CHECK:      ret { double, [4 x double] }

; Passed to a callee that reads it as a vector of two: one shadow per lane.
define double @escapes2(double %x) {
  %a = alloca [4 x double], align 16
  store double %x, ptr %a
  %v = call double @use2(ptr %a)
  ret double %v
}

define double @use2(ptr %p) noinline {
  %v = load <2 x double>, ptr %p
  %e = extractelement <2 x double> %v, i64 0
  ret double %e
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_escapes2(
; CHECK-COUNT-4: alloca [4 x double]
; CHECK-NOT:  store <4 x double>
; CHECK:      ret [4 x double]

; Also read as a vector of two: one shadow per lane.
define double @mixed(double %x) {
  %a = alloca [2 x double], align 16
  store double %x, ptr %a
  %p = getelementptr double, ptr %a, i64 1
  %y = fmul double %x, %x
  store double %y, ptr %p
  %v = load <2 x double>, ptr %a
  %e0 = extractelement <2 x double> %v, i64 0
  %e1 = extractelement <2 x double> %v, i64 1
  %s = fadd double %e0, %e1
  ret double %s
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_mixed(
; CHECK-COUNT-4: alloca [2 x double]
; CHECK-NOT:  load <4 x double>
; CHECK:      ret [4 x double]

define void @requests(double %x, i64 %i, i64 %j) {
  %w = load i32, ptr @enzyme_width
  %c = load i32, ptr @enzyme_const
  %r1 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @local, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0, i32 %c, i64 %i, i32 %c, i64 %j)
  %r2 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @escapes, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0)
  %r4 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @escapes2, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0)
  %r3 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @mixed, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0)
  ret void
}
