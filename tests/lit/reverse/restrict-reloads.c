// A restrict (noalias) argument the function only reads (readonly, as LLVM
// infers it) is not written by anything while the function runs: the
// reverse sweep reads its values again instead of recording them per
// iteration, even where a callee may write other memory (lgamma writes
// signgam, so 'prior' is not known to write its arguments alone; before,
// that call made 'c' count as written and c[i] was recorded per
// iteration). Without restrict, the call keeps the record.
// RUN: %adcc -O2 -fno-unroll-loops -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
double lgamma(double);
double sin(double);
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double prior(int n, const double *c) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += lgamma(c[i] + 2);
  return s;
}

// Only sin(x[i]) is recorded per iteration (8 bytes); c[i] and x[i] are
// read again.
// CHECK-LABEL: adcc: reverse mode of 'weighted': tape {{.*}} + 8 bytes per loop iteration
// CHECK: recompute ptr %{{[0-9]+}} for 'load' (each loop iteration)
// CHECK-NEXT: recompute ptr %{{[0-9]+}} for 'load' (each loop iteration)
double weighted(int n, const double *restrict c, const double *restrict x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c[i] * sin(x[i]);
  return s + prior(n, c);
}

// c may alias what 'prior' is assumed to write: c[i], x[i] and sin(x[i])
// recorded per iteration.
// CHECK-LABEL: adcc: reverse mode of 'aliasing': tape {{.*}} + 24 bytes per loop iteration
double aliasing(int n, const double *c, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c[i] * sin(x[i]);
  return s + prior(n, c);
}

void grad(int n, const double *c, double *dc, const double *x, double *dx) {
  __enzyme_autodiff((void *)weighted, n, c, dc, x, dx);
  __enzyme_autodiff((void *)aliasing, n, c, dc, x, dx);
}
