// The triangular loop of an OpenMP region (the GMM objective's
// qxc[r] += l[li++] * x[c], the parameters read through per-thread copies
// of their adjoints): the shadow address of l[li] is computed again in the
// reverse sweep, not recorded per step. Its rebuild (select(p == null,
// null, gep(p, li)) over a shadow itself so guarded, li an outer loop's
// running index) ran out of its 16 nodes before: a pointer recorded per
// step (docs/performance.md#parallel-gradients-openmp).
// RUN: %adcc -fopenmp -O2 -fadcc-print-tape-plan -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: reverse mode of the OpenMP region in 'tri': tape
// CHECK-NOT: record ptr {{.*}} for 'load' (each loop iteration)
// CHECK: adjoint updates of memory
double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
enum { D = 6, ICF = D * (D + 1) / 2 };
double tri(int n, const double *icf, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    double qxc[D];
    const double *xi = x + (long)i * D, *l = icf + D;
    for (int j = 0; j < D; j++)
      qxc[j] = icf[j] * xi[j];
    int li = 0;
    for (int c = 0; c < D; c++)
      for (int r = c + 1; r < D; r++)
        qxc[r] += l[li++] * xi[c];
    for (int j = 0; j < D; j++)
      s += qxc[j] * qxc[j];
  }
  return s;
}
void grad(int n, const double *icf, double *dicf, const double *x) {
  __enzyme_autodiff((void *)tri, enzyme_const, n, icf, dicf, enzyme_const, x);
}
