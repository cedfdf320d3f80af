// An OpenMP region reads the forking function's arrays through pointers
// it loads from the function's stack slots (the outlined function's
// parameters). Where nothing writes an array between the sweeps (neither
// the function, its region nor, as __enzyme_autodiff says, its callers),
// the reverse region reads its values again instead of recording them per
// iteration: here the factors l[li] of the triangular loop (the OpenMP
// GMM's qxc[r] += l[li++] * x[c]) and the points x[c]
// (docs/performance.md#parallel-gradients-openmp). Before, both were
// recorded per step: 208 bytes per iteration of the points' loop.
// RUN: %adcc -fopenmp -O2 -fadcc-print-tape-plan -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;
enum { D = 6, ICF = D * (D + 1) / 2 };

// What is left per iteration: three sums of the triangular loop.
// CHECK-LABEL: reverse mode of the OpenMP region in 'tri': tape {{[0-9]+}} bytes per call + 24 bytes per loop iteration
// CHECK-NOT: record double %{{[0-9]+}} for 'fmul'
// CHECK: adjoint updates of memory
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

// The same region writing through another pointer of the function, which
// may point into icf or x: their values are recorded per step.
// CHECK-LABEL: reverse mode of the OpenMP region in 'tri_out': tape
// CHECK: record double %{{[0-9]+}} for 'fmul' (each loop iteration)
// CHECK: adjoint updates of memory
double tri_out(int n, const double *icf, const double *x, double *out) {
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
    out[i] = qxc[0];
    for (int j = 0; j < D; j++)
      s += qxc[j] * qxc[j];
  }
  return s;
}

void grad(int n, const double *icf, double *dicf, const double *x,
          double *out) {
  __enzyme_autodiff((void *)tri, enzyme_const, n, enzyme_dup, icf, dicf,
                    enzyme_const, x);
  __enzyme_autodiff((void *)tri_out, enzyme_const, n, enzyme_dup, icf, dicf,
                    enzyme_const, x, enzyme_const, out);
}
