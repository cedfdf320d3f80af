// The tape plan of each reverse-mode derivative: a remark with -Rpass=adcc,
// the value-by-value listing with -fadcc-print-tape-plan.
// RUN: %adcc -O2 -c -Rpass=adcc %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | count 0
//
// sumsq: the loop is reversed by its trip count (recorded once, at the
// exit), the address of x[i] is rebuilt from the reverse sweep's iteration
// counter, and x[i] itself is read again (nothing writes x): no record per
// iteration; the pointers x and dx are recorded once per call, and so is n:
// whether the loop ran (n > 0) decides how the block after it was entered.
// REMARK: tape-plan.c:[[@LINE+13]]:1: remark: reverse mode of 'sumsq': tape 32 bytes per call (3 recorded values, 0 control-flow records, 1 loop counts); every other value is recomputed or constant [-Rpass=adcc]
// PLAN-LABEL: adcc: reverse mode of 'sumsq': tape
// PLAN-DAG: record the trip count of the loop at block %{{[0-9]+}} on its exit to block %{{[0-9]+}}
// PLAN-DAG: recompute ptr {{.*}} for 'load' (each loop iteration)
// PLAN-DAG: recompute double {{.*}} for 'call' (each loop iteration)
// PLAN-DAG: record ptr %{{[0-9]+}} once, at the return
// PLAN-DAG: recompute the condition that decides the predecessor of block %{{[0-9]+}}
// PLAN-NOT: (each loop iteration)
// PLAN-LABEL: adcc: reverse mode of 'square_in_place'
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

// square_in_place writes x: x[i] is recorded each iteration (the reverse
// sweep cannot read it again), in an array sized by the loop's trip count
// (whose address and length are recorded at the exit); its address is not.
// REMARK: tape-plan.c:[[@LINE+6]]:1: remark: reverse mode of 'square_in_place': tape {{[0-9]+}} bytes per call + 8 bytes per loop iteration ({{[0-9]+}} recorded values, 0 control-flow records, 1 loop counts); every other value is recomputed or constant [-Rpass=adcc]
// PLAN: record double {{.*}} for 'fmul' (each loop iteration)
// PLAN-NEXT: (in the array sized by the trip count of the loop at block %{{[0-9]+}})
// PLAN-NOT: record ptr {{.*}} (each loop iteration)
// PLAN-NOT: record double {{.*}} for 'fadd'
__attribute__((noinline))
void square_in_place(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * x[i];
}
void grad2(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)square_in_place, enzyme_dup, x, dx, enzyme_const, n);
}

// tri overwrites v, so a = v[c] is recorded; it is the same in every
// iteration of the inner loop: recorded once per run of that loop, at its
// exit, not per iteration.
// PLAN-LABEL: adcc: reverse mode of 'tri'
// PLAN: record double {{.*}} once per run of the loop at block %{{[0-9]+}}, at its exit (each loop iteration)
__attribute__((noinline))
void tri(double *v, int d) {
  for (int c = 0; c < d; c++) {
    double a = v[c];
    for (int r = c + 1; r < d; r++)
      v[r] += a * v[r];
  }
}
void grad3(double *v, double *dv, int d) {
  __enzyme_autodiff((void *)tri, enzyme_dup, v, dv, enzyme_const, d);
}

// cubic: x[i] is recorded once per iteration (8 bytes). The product
// 0.05 x (-x) x takes the power rule, a(x) += d * 3 * (0.05 x (-x)): only
// that factor is needed, and it is rebuilt from x[i].
// PLAN-LABEL: adcc: reverse mode of 'cubic': tape {{[0-9]+}} bytes per call + 8 bytes per loop iteration
// PLAN: record double %[[X:[0-9]+]] for '{{fmul|call}}' (each loop iteration)
// PLAN-NEXT: (in the array sized by the trip count of the loop at block %{{[0-9]+}})
// PLAN-NEXT: recompute double %{{[0-9]+}} for '{{fmul|call}}' (each loop iteration)
// PLAN-NOT: record double
__attribute__((noinline))
void cubic(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] - 0.05 * x[i] * x[i] * x[i];
}
void grad4(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)cubic, enzyme_dup, x, dx, enzyme_const, n);
}

// rows: the inner loop runs n times in every row; its trip count is
// computed once before the outer loop and recorded with the outer loop's
// exit values, not at each exit of the inner loop; so is the length of the
// inner loop's array of records (only its address is recorded per run).
// PLAN-LABEL: adcc: reverse mode of 'rows': tape {{[0-9]+}} bytes per call
// PLAN: read the trip count of the loop at block %{{[0-9]+}} from the one recorded once per run of the loop at block %{{[0-9]+}} (each loop iteration)
// PLAN-NOT: record the trip count of the loop at block {{.*}} (each loop iteration)
// PLAN-NOT: record i64 {{.*}} once per run of the loop at block {{.*}} (each loop iteration)
__attribute__((noinline))
void rows(double *y, const double *a, int n) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += a[(long)i * n + j] * y[j] * y[j];
    y[i] = s;
  }
}
void grad5(double *y, double *dy, const double *a, int n) {
  __enzyme_autodiff((void *)rows, enzyme_dup, y, dy, enzyme_const, a,
                    enzyme_const, n);
}

// triangle: the inner loop runs n - c - 1 times in column c. Its count is
// not recorded: the reverse sweep rebuilds it from its own counter of the
// outer loop where it enters the inner loop; so is the length of the inner
// loop's array of records (only its address is recorded per run). A count
// read from memory is recorded at the inner loop's exit as before.
// PLAN-LABEL: adcc: reverse mode of 'triangle': tape {{[0-9]+}} bytes per call + 16 bytes per loop iteration
// PLAN-NOT: record the trip count of the loop at block {{.*}} (each loop iteration)
// PLAN: recompute the trip count of the loop at block %{{[0-9]+}} on its exit to block %{{[0-9]+}} (each loop iteration)
// PLAN-NOT: record the trip count of the loop at block {{.*}} (each loop iteration)
// PLAN-NOT: record i64 {{.*}} once per run of the loop {{.*}} (each loop iteration)
// PLAN-LABEL: adcc: reverse mode of 'from_memory'
// PLAN: record the trip count of the loop at block %{{[0-9]+}} on its exit to block %{{[0-9]+}} (each loop iteration)
// PLAN-NEXT: (in the array sized by the trip count of the loop at block %{{[0-9]+}})
// PLAN-NOT: recompute the trip count
double sin(double);
__attribute__((noinline))
double triangle(const double *x, int n) {
  double s = 0;
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r)
      s += x[r] * sin(x[c]);
  return s;
}
void grad6(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)triangle, enzyme_dup, x, dx, enzyme_const, n);
}

__attribute__((noinline))
double from_memory(const double *x, const int *len, int n) {
  double s = 0;
  for (int c = 0; c < n; ++c)
    for (int k = 0; k < len[c]; ++k)
      s += x[k] * sin(x[c]);
  return s;
}
void grad7(const double *x, double *dx, const int *len, int n) {
  __enzyme_autodiff((void *)from_memory, enzyme_dup, x, dx, enzyme_const, len,
                    enzyme_const, n);
}

// column_start: GMM's `li` at the start of each column is recorded once per
// run of the inner loop, at its exit, in the row of the outer loop's array
// (made for it: the outer loop records nothing else per iteration), not by
// a push of its own per column (reverse/ExitArrays.cpp).
// PLAN-LABEL: adcc: reverse mode of 'column_start'
// PLAN: record i32 %{{[0-9]+}} once per run of the loop at block %{{[0-9]+}}, at its exit (each loop iteration)
// PLAN-NEXT: (in the array sized by the trip count of the loop at block %[[OUTER:[0-9]+]])
// PLAN: record the trip count of the loop at block %[[OUTER]] on its exit
// PLAN-NEXT: record ptr %{{[0-9]+}} once per run of the loop at block %[[OUTER]], at its exit{{$}}
__attribute__((noinline))
double column_start(const double *x, const double *l, int n) {
  double s = 0;
  int li = 0;
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r)
      s += l[li++] * x[c] * x[r];
  return s;
}
void grad8(const double *x, double *dx, const double *l, int n) {
  __enzyme_autodiff((void *)column_start, enzyme_dup, x, dx, enzyme_const, l,
                    enzyme_const, n);
}
