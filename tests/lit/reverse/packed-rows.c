// The rows of a loop's array of records hold each record at its own size
// (reverse/LoopArrays.cpp): GMM's triangle in single precision records
// expf(x[j]) and w[j] (4 bytes each) per step of the j loop and li (4
// bytes) per column: the plan's per-iteration records (of all its loops,
// the rows' pointers included) add up to 48 bytes, 64 with a granule each.
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 | FileCheck %s
// With -adcc-recompute-math-calls (reverse/RecomputedCalls.cpp, off by
// default) expf(0.1f * x[j]), of the parameters, is computed again by the
// reverse sweep, not recorded; w[j] and the final q[j] still are.
// RUN: %adcc -O2 -c -fadcc-print-tape-plan -mllvm -adcc-recompute-math-calls %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALLS
//
// CALLS-LABEL: reverse mode of 'tri_float'
// CALLS: recompute float %{{[0-9]+}} for 'call' (each loop iteration)
// CALLS-NOT: record float %{{[0-9]+}} for 'call'
// CALLS: record float %{{[0-9]+}} for 'fmul' (each loop iteration)
//
// CHECK-LABEL: reverse mode of 'tri_float': tape {{[0-9]+}} bytes per call + 48 bytes per loop iteration
// CHECK: record float %{{[0-9]+}} for 'call' (each loop iteration)
// CHECK-NEXT: (in the array sized by the trip count of the loop at block
// CHECK: record float %{{[0-9]+}} for 'fmul' (each loop iteration)
// CHECK-NEXT: (in the array sized by the trip count of the loop at block
// CHECK: record i32 %{{[0-9]+}} once per run of the loop at block %{{[0-9]+}}, at its exit (each loop iteration)
// CHECK-NEXT: (in the array sized by the trip count of the loop at block
#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double tri_float(const double *v, int d, int np) {
  const double *x = v, *l = v + d;
  float *w = malloc(d * sizeof(float)), *q = malloc(d * sizeof(float));
  double s = 0;
  for (int p = 0; p < np; p++) {
    for (int j = 0; j < d; j++)
      w[j] = (float)x[j] - 0.25f * (float)p;
    for (int j = 0; j < d; j++)
      q[j] = expf(0.1f * (float)x[j]) * w[j];
    int li = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++)
        q[r] += (float)l[li++] * w[c];
    for (int j = 0; j < d; j++)
      s += (double)q[j] * (double)q[j];
  }
  free(w);
  free(q);
  return 0.5 * s;
}

void grad(const double *v, double *g, int d, int np) {
  __enzyme_autodiff((void *)tri_float, enzyme_dup, v, g, enzyme_const, d,
                    enzyme_const, np);
}
