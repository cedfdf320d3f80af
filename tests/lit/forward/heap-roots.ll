; A heap block the function allocates is local memory like a stack slot:
; a table of pointers into constant memory (`tab[l] = W + l * n`) holds no
; derivative, and the pointers read back from it are constant. (They were
; active, with the null shadows stored for pointers without shadow, and
; the reverse sweep added adjoints at address 0: issue 33.) At -O0 the
; block's address lives in a local variable that holds nothing else. An
; active pointer stored into the block, or the block passed to a function
; that may write it, makes it hold derivatives.
; RUN: adcc-opt -passes=adcc-print-activity %s -o /dev/null | FileCheck %s

@W = internal constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @fill(ptr, ptr)

define double @table(double %x, i64 %l) {
  %tab = call ptr @malloc(i64 16)
  store ptr @W, ptr %tab
  %e1 = getelementptr ptr, ptr %tab, i64 1
  store ptr getelementptr (double, ptr @W, i64 2), ptr %e1
  %e = getelementptr ptr, ptr %tab, i64 %l
  %w = load ptr, ptr %e
  %v = load double, ptr %w
  %m = fmul double %v, %x
  call void @free(ptr %tab)
  ret double %m
}
; CHECK-LABEL: activity of 'table'
; CHECK: active   %tab = call ptr @malloc(i64 16)  ; holds no derivative
; CHECK: const    %w = load ptr, ptr %e
; CHECK: const    %v = load double, ptr %w
; CHECK: active   %m = fmul double %v, %x

define double @table_O0(double %x, i64 %l) {
  %tab.addr = alloca ptr
  %call = call ptr @malloc(i64 16)
  store ptr %call, ptr %tab.addr
  %t1 = load ptr, ptr %tab.addr
  store ptr @W, ptr %t1
  %t2 = load ptr, ptr %tab.addr
  %e = getelementptr ptr, ptr %t2, i64 %l
  %w = load ptr, ptr %e
  %v = load double, ptr %w
  %m = fmul double %v, %x
  %t3 = load ptr, ptr %tab.addr
  call void @free(ptr %t3)
  ret double %m
}
; CHECK-LABEL: activity of 'table_O0'
; CHECK: active   %call = call ptr @malloc(i64 16)  ; holds no derivative
; CHECK: active   %t2 = load ptr, ptr %tab.addr
; CHECK: const    %w = load ptr, ptr %e
; CHECK: const    %v = load double, ptr %w

define double @mixed(ptr %x, i64 %l) {
  %tab = call ptr @malloc(i64 16)
  store ptr @W, ptr %tab
  %e1 = getelementptr ptr, ptr %tab, i64 1
  store ptr %x, ptr %e1
  %e = getelementptr ptr, ptr %tab, i64 %l
  %w = load ptr, ptr %e
  %v = load double, ptr %w
  ret double %v
}
; CHECK-LABEL: activity of 'mixed'
; CHECK: active   %tab = call ptr @malloc(i64 16){{$}}
; CHECK: active   %w = load ptr, ptr %e
; CHECK: active   %v = load double, ptr %w

define double @filled_elsewhere(double %x, i64 %l) {
  %tab = call ptr @malloc(i64 16)
  call void @fill(ptr %tab, ptr @W)
  %e = getelementptr ptr, ptr %tab, i64 %l
  %w = load ptr, ptr %e
  %v = load double, ptr %w
  %m = fmul double %v, %x
  ret double %m
}
; CHECK-LABEL: activity of 'filled_elsewhere'
; CHECK: active   %tab = call ptr @malloc(i64 16){{$}}
; CHECK: active   %w = load ptr, ptr %e
