// The tape plan of each reverse-mode derivative: a remark with -Rpass=adcc,
// the value-by-value listing with -fadcc-print-tape-plan.
// RUN: %adcc -O2 -c -Rpass=adcc %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | count 0
// The loop is reversed by its trip count (recorded once, at the exit), the
// address of x[i] is recomputed from the reverse sweep's iteration counter
// and the pointer x is recorded once per call: only x[i] itself is recorded
// per iteration.
// REMARK: tape-plan.c:[[@LINE+12]]:1: remark: reverse mode of 'sumsq': tape 24 bytes per call + 8 bytes per loop iteration (2 recorded values, 1 control-flow records, 1 loop counts); every other value is recomputed or constant [-Rpass=adcc]
// PLAN: adcc: reverse mode of 'sumsq': tape
// PLAN-DAG: record the trip count of the loop at block %{{[0-9]+}} on its exit to block %{{[0-9]+}}
// PLAN-DAG: recompute ptr {{.*}} for 'load' (each loop iteration)
// PLAN-DAG: record double {{.*}} for 'call' (each loop iteration)
// PLAN-DAG: record ptr %{{[0-9]+}} once, at the return
// PLAN-NOT: record ptr {{.*}} (each loop iteration)
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
