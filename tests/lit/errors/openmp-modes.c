// Modes that do not differentiate OpenMP regions yet are errors naming the
// mode, not derivatives of something else: a second derivative by forward
// mode over the reverse sweep of a region (a Hessian-vector product), at
// the request; split forward mode of a region, at the directive
// (docs/parallel.md). The derivative fuzzer's programs of version 20 found
// the first as an error about adcc's own runtime ("no object file linked
// by adcc defines 'adcc_parallel_free'").
// RUN: %expect-exit 1 %adcc -fopenmp -O0 %s -o %t 2>&1 | FileCheck %s --check-prefix=HVP
// RUN: %expect-exit 1 %adcc -fopenmp -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=HVP
// RUN: %expect-exit 1 %adcc -fopenmp -O0 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit 1 %adcc -fopenmp -O2 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);

double sum_squares(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}
// SPLIT: openmp-modes.c:[[#@LINE-5]]:1: error: cannot differentiate 'sum_squares' in forward mode: split forward mode of an OpenMP parallel region is not supported yet; use __enzyme_fwddiff

#ifndef SPLIT
void gradient(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, v[4] = {1, 0, 0, 0}, g[4] = {0}, hv[4] = {0};
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, 4);
  // HVP: openmp-modes.c:[[#@LINE-2]]:3: error: cannot differentiate the derivative of {{.*}} in forward mode: forward mode over the reverse sweep of an OpenMP parallel region (a second derivative by forward over reverse mode) is not supported yet
  return (int)hv[0];
}
#else
double split_tangent(double *x, double *dx, int n) {
  void *tape = __enzyme_augmentfwd((void *)sum_squares, enzyme_dup, x, dx,
                                   enzyme_const, n);
  return __enzyme_fwdsplit((void *)sum_squares, enzyme_dup, x, dx,
                           enzyme_const, n, tape);
}
#endif
