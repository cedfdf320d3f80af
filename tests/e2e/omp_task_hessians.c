/* Hessian-vector products (forward over reverse mode) through OpenMP
 * tasks. A module that differentiates code asking for derivatives runs its
 * tasks where they are created (the forward sweep of a gradient cannot
 * follow tasks the runtime starts: docs/parallel.md#tasks); before that
 * rule, the gradient's task runtime calls did not link. Against the
 * analytic Hessian, with teams of 1, 2 and 4 threads; and through tasks
 * with depend clauses (flow, anti and output dependences) against central
 * differences of the gradient. */
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

/* A chain of tasks with dependences: a = |x|^2, b = sin(a) x1 (reads a),
 * a = a x2 (after that read), a * b. */
double fdep(const double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel shared(a, b)
#pragma omp single
  {
#pragma omp task depend(out : a) shared(a)
    for (int i = 0; i < n; ++i)
      a += x[i] * x[i];
#pragma omp task depend(in : a) depend(out : b) shared(a, b)
    b = sin(a) * x[1];
#pragma omp task depend(inout : a) shared(a)
    a = a * x[2];
  }
  return a * b;
}

static void grad_dep(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)fdep, enzyme_dup, x, dx, enzyme_const, n);
}

static void check_dependences(const double *x, const double *v) {
  const double h = 1e-6;
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double dx[N] = {0}, hv[N] = {0}, gp[N] = {0}, gm[N] = {0};
    double xp[N], xm[N];
    __enzyme_fwddiff((void *)grad_dep, enzyme_dup, x, v, enzyme_dup, dx, hv,
                     enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      xp[i] = x[i] + h * v[i];
      xm[i] = x[i] - h * v[i];
    }
    grad_dep(xp, gp, N);
    grad_dep(xm, gm, N);
    double g[N] = {0};
    grad_dep(x, g, N);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
      CHECK_CLOSE(dx[i], g[i], 1e-12);
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      CHECK_CLOSE(g[i], (fdep(xp, N) - fdep(xm, N)) / (2 * h), 1e-6);
    }
  }
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
  check_dependences(x, v);
  return check_finish();
}
