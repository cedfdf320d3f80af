// The tape plan of each reverse-mode derivative: a remark with -Rpass=adcc,
// the value-by-value listing with -fadcc-print-tape-plan.
// RUN: %adcc -O2 -c -Rpass=adcc %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | count 0
// REMARK: tape-plan.c:[[@LINE+8]]:1: remark: reverse mode of 'sumsq': tape {{[0-9]+}} bytes per call + {{[0-9]+}} bytes per loop iteration ({{[0-9]+}} recorded values, {{[0-9]+}} control-flow records); every other value is recomputed or constant [-Rpass=adcc]
// PLAN: adcc: reverse mode of 'sumsq': tape
// PLAN: record ptr {{.*}} for 'load' (each loop iteration)
// PLAN-NOT: record double {{.*}} for 'fadd'
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

__attribute__((noinline))
double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
}
