// Modes that do not differentiate OpenMP regions yet are errors naming the
// mode, not derivatives of something else: split forward mode of a region,
// at the directive (docs/parallel.md). The derivative fuzzer's programs of
// version 20 found forward mode over the reverse sweep of a region as an
// error about adcc's own runtime ("no object file linked by adcc defines
// 'adcc_parallel_free'"). Since 2026-12-06 forward mode over the reverse
// sweep of regions works (e2e omp_hessians.c): sum_squares's
// Hessian-vector product compiles, and so does that of a region whose
// reverse keeps per-thread copies of adjoints (until then an error at the
// request), whose values are checked here.
// RUN: %adcc -fopenmp -O0 %s -o %t
// RUN: %adcc -fopenmp -O2 %s -o %t
// RUN: %adcc -fopenmp -O0 -DCOPIES %s -o %t && %t | FileCheck %s --check-prefix=HVP
// RUN: %adcc -fopenmp -O2 -DCOPIES %s -o %t && %t | FileCheck %s --check-prefix=HVP
// RUN: %expect-exit 1 %adcc -fopenmp -O0 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit 1 %adcc -fopenmp -O2 -c -DSPLIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
#include <stdio.h>

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

// (p is read at the same places by every iteration: per-thread copies of
// its adjoints.)
double weighted(const double *x, const double *p, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] * p[1];
  return s;
}

#if defined(COPIES)
void gradient(const double *x, double *g, const double *p, double *gp,
              int n) {
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, g, enzyme_dup, p, gp,
                    enzyme_const, n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, v[4] = {1, 0, 0, 0}, g[4] = {0}, hv[4] = {0};
  double p[2] = {1, 2}, vp[2] = {0, 1}, gp[2] = {0}, hp[2] = {0};
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_dup, p, vp, enzyme_dup, gp, hp, enzyme_const, 4);
  // g_i = p0 p1, gp = (p1, p0) sum x; along x' = e0, p' = e1:
  // hv_i = p0, hp = (sum x + p1, p0)
  printf("g %g %g hv %g %g gp %g %g hp %g %g\n", g[0], g[3], hv[0], hv[3],
         gp[0], gp[1], hp[0], hp[1]);
  // HVP: g 2 2 hv 1 1 gp 20 10 hp 12 1
  return 0;
}
#elif !defined(SPLIT)
void gradient(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)sum_squares, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, v[4] = {1, 0, 0, 0}, g[4] = {0}, hv[4] = {0};
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, 4);
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
