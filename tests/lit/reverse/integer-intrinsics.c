// Intrinsics on integers only (llvm.smin of two sizes read from memory, as
// in Eigen's blocking heuristics) and llvm.prefetch carry no derivative, in
// both modes: no "not supported" error.
// RUN: %adcc -O2 -c %s -o /dev/null
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O0 -c %s -o /dev/null
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double block_sum(const double *x, const long *sizes) {
  long n = sizes[0] < sizes[1] ? sizes[0] : sizes[1];
  double s = 0;
  for (long i = 0; i < n; ++i) {
    __builtin_prefetch(x + i + 8);
    s += x[i] * x[i];
  }
  return s;
}

double gradient(const double *x, double *dx, const long *sizes) {
  extern int enzyme_const;
  return __enzyme_autodiff((void *)block_sum, x, dx, enzyme_const, sizes);
}
double tangent(const double *x, double *tx, const long *sizes) {
  extern int enzyme_const;
  return __enzyme_fwddiff((void *)block_sum, x, tx, enzyme_const, sizes);
}
// CHECK: call i64 @llvm.smin.i64
