/* Hessian-vector products (forward over reverse mode) through OpenMP
 * tasks. A module that differentiates code asking for derivatives runs its
 * tasks where they are created (the forward sweep of a gradient cannot
 * follow tasks the runtime starts: docs/parallel.md#tasks); before that
 * rule, the gradient's task runtime calls did not link. Against the
 * analytic Hessian, with teams of 1, 2 and 4 threads. */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 12 };

/* sum of x[i]^2 sin(x[i]) over tasks of blocks of 4, and a task's
 * captured scale x[0]. */
double f(const double *x, int n) {
  double s = 0, scale = x[0];
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < n; b += 4) {
#pragma omp task firstprivate(b, scale) shared(s)
    {
      double p = 0;
      for (int i = b; i < b + 4; ++i)
        p += x[i] * x[i] * sin(x[i]);
#pragma omp atomic
      s += p * scale;
    }
  }
  return s;
}

static void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

int main(void) {
  double x[N], v[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.2 + 0.1 * i;
    v[i] = cos(1.0 + i);
  }
  double g = 0; /* g(x) = sum x^2 sin x; f = x0 * g */
  for (int i = 0; i < N; ++i)
    g += x[i] * x[i] * sin(x[i]);
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double dx[N] = {0}, hv[N] = {0};
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv,
                     enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      double gi = 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]);
      double hii = 2 * sin(x[i]) + 4 * x[i] * cos(x[i]) -
                   x[i] * x[i] * sin(x[i]);
      /* H = x0 * diag(h) + e0 g' + g' e0 (+ the i = 0 terms) */
      double want = x[0] * hii * v[i] + gi * v[0];
      if (i == 0) {
        double dot = 0;
        for (int j = 0; j < N; ++j)
          dot += (2 * x[j] * sin(x[j]) + x[j] * x[j] * cos(x[j])) * v[j];
        want += dot;
      }
      CHECK_CLOSE(hv[i], want, 1e-9);
      double dwant = x[0] * gi + (i == 0 ? g : 0);
      CHECK_CLOSE(dx[i], dwant, 1e-9);
    }
  }
  return check_finish();
}
