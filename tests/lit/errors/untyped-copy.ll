; Doubles and an int serialized into one byte buffer at running offsets
; (Clang's -O0 IR of `memcpy(buf + off, &t, 8)` ... `memcpy(buf + off,
; &tag, 4)` ... `memcpy(&u, buf + off, 8)`, with t and u wrapped in a
; struct {double}): the type analysis finds both kinds in the buffer and
; gives the copies a conflict. Reverse mode must report the copies of
; memory declared with doubles, not take them for integers: that dropped
; every adjoint (gradient 0). Copies of one scalar variable are typed by
; the variable (tests/e2e/probe_c_memory.c, f_serialized).
; RUN: %expect-exit 1 adcc-opt -passes='adcc<O0>' %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'f' in reverse mode: a memory copy whose contents cannot be typed (some bytes are used as two different types)

define double @f(ptr noundef %0) {
  %2 = alloca ptr, align 8
  %3 = alloca [64 x i8], align 16
  %4 = alloca i64, align 8
  %5 = alloca i32, align 4
  %6 = alloca { double }, align 8
  %7 = alloca i32, align 4
  %8 = alloca double, align 8
  %9 = alloca { double }, align 8
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  store i64 0, ptr %4, align 8
  store i32 0, ptr %5, align 4
  br label %12

12:                                               ; preds = %32, %1
  %13 = load i32, ptr %5, align 4
  %14 = icmp slt i32 %13, 3
  br i1 %14, label %15, label %35

15:                                               ; preds = %12
  %16 = load ptr, ptr %2, align 8
  %17 = load i32, ptr %5, align 4
  %18 = sext i32 %17 to i64
  %19 = getelementptr inbounds double, ptr %16, i64 %18
  %20 = load double, ptr %19, align 8
  %21 = load ptr, ptr %2, align 8
  %22 = load i32, ptr %5, align 4
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds double, ptr %21, i64 %23
  %25 = load double, ptr %24, align 8
  %26 = fmul double %20, %25
  store double %26, ptr %6, align 8
  %27 = getelementptr inbounds [64 x i8], ptr %3, i64 0, i64 0
  %28 = load i64, ptr %4, align 8
  %29 = getelementptr inbounds nuw i8, ptr %27, i64 %28
  call void @llvm.memcpy.p0.p0.i64(ptr align 1 %29, ptr align 8 %6, i64 8, i1 false)
  %30 = load i64, ptr %4, align 8
  %31 = add i64 %30, 8
  store i64 %31, ptr %4, align 8
  br label %32

32:                                               ; preds = %15
  %33 = load i32, ptr %5, align 4
  %34 = add nsw i32 %33, 1
  store i32 %34, ptr %5, align 4
  br label %12

35:                                               ; preds = %12
  store i32 7, ptr %7, align 4
  %36 = getelementptr inbounds [64 x i8], ptr %3, i64 0, i64 0
  %37 = load i64, ptr %4, align 8
  %38 = getelementptr inbounds nuw i8, ptr %36, i64 %37
  call void @llvm.memcpy.p0.p0.i64(ptr align 1 %38, ptr align 4 %7, i64 4, i1 false)
  %39 = load i64, ptr %4, align 8
  %40 = add i64 %39, 4
  store i64 %40, ptr %4, align 8
  store double 0.000000e+00, ptr %8, align 8
  store i64 0, ptr %4, align 8
  store i32 0, ptr %10, align 4
  br label %41

41:                                               ; preds = %56, %35
  %42 = load i32, ptr %10, align 4
  %43 = icmp slt i32 %42, 3
  br i1 %43, label %44, label %59

44:                                               ; preds = %41
  %45 = getelementptr inbounds [64 x i8], ptr %3, i64 0, i64 0
  %46 = load i64, ptr %4, align 8
  %47 = getelementptr inbounds nuw i8, ptr %45, i64 %46
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %9, ptr align 1 %47, i64 8, i1 false)
  %48 = load i64, ptr %4, align 8
  %49 = add i64 %48, 8
  store i64 %49, ptr %4, align 8
  %50 = load double, ptr %9, align 8
  %51 = load i32, ptr %10, align 4
  %52 = add nsw i32 %51, 1
  %53 = sitofp i32 %52 to double
  %54 = load double, ptr %8, align 8
  %55 = call double @llvm.fmuladd.f64(double %50, double %53, double %54)
  store double %55, ptr %8, align 8
  br label %56

56:                                               ; preds = %44
  %57 = load i32, ptr %10, align 4
  %58 = add nsw i32 %57, 1
  store i32 %58, ptr %10, align 4
  br label %41

59:                                               ; preds = %41
  %60 = getelementptr inbounds [64 x i8], ptr %3, i64 0, i64 0
  %61 = load i64, ptr %4, align 8
  %62 = getelementptr inbounds nuw i8, ptr %60, i64 %61
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %11, ptr align 1 %62, i64 4, i1 false)
  %63 = load double, ptr %8, align 8
  %64 = load i32, ptr %11, align 4
  %65 = sitofp i32 %64 to double
  %66 = fmul double %63, %65
  ret double %66
}

define double @g(ptr noundef %0, ptr noundef %1) {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %5 = load i32, ptr @enzyme_dup, align 4
  %6 = load ptr, ptr %3, align 8
  %7 = load ptr, ptr %4, align 8
  %8 = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @f, i32 noundef %5, ptr noundef %6, ptr noundef %7)
  ret double %8
}

declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @__enzyme_autodiff(ptr noundef, ...)

@enzyme_dup = external global i32, align 4
