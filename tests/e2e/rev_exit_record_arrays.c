// The records an inner loop makes at its exit (its trip count, values
// recorded once per run of it: GMM's `li` at the start of each column) go
// into the array of the counted loop around the exit, one row per
// iteration, instead of a push per iteration (reverse/ExitArrays.cpp,
// 2026-12-07). Rows an iteration does not write (an inner loop that does
// not run, an exit not taken) are never read. Gradients against central
// differences and forward mode, and the triangle against its analytic
// gradient, -O0 to -O3.
#include "check.h"

#include <math.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define D 7
#define NL (D * (D - 1) / 2)
#define NX (D + NL)

/* GMM's triangle: li recorded at the start of each column; the last
   column's inner loop does not run. */
__attribute__((noinline)) double tri(const double *v, int d) {
  const double *x = v, *l = v + d;
  double q[D];
  for (int j = 0; j < d; j++)
    q[j] = exp(0.1 * x[j]) * x[j];
  int li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++)
      q[r] += l[li++] * x[c];
  double s = 0;
  for (int j = 0; j < d; j++)
    s += q[j] * q[j];
  return 0.5 * s;
}

static void tri_analytic(const double *v, int d, double *g) {
  const double *x = v, *l = v + d;
  double q[D];
  for (int j = 0; j < d; j++)
    q[j] = exp(0.1 * x[j]) * x[j];
  int li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++)
      q[r] += l[li++] * x[c];
  for (int j = 0; j < d; j++)
    g[j] = q[j] * exp(0.1 * x[j]) * (1 + 0.1 * x[j]);
  li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      g[c] += l[li] * q[r];
      g[d + li] = q[r] * x[c];
      li++;
    }
}

/* Inner trip counts read from memory (recorded at the exit) beside a value
   computed before the inner loop (a libm result, recorded once per run);
   some counts are 0. */
static const int Lens[D] = {3, 0, 5, 1, 0, 6, 2};
__attribute__((noinline)) double lens(const double *x, const int *len, int n) {
  double s = 0;
  for (int c = 0; c < n; c++) {
    double a = sin(x[c]);
    for (int r = 0; r < len[c]; r++)
      s += a * x[r] * x[(r + c) % n];
  }
  return s;
}

/* An inner loop with two exits: its count is recorded at whichever exit the
   run takes, each in a slot of its own in the row. */
__attribute__((noinline)) double early(const double *x, int n) {
  double s = 0;
  for (int c = 0; c < n; c++) {
    double a = cos(x[c]);
    int r = 0;
    for (; r < n; r++) {
      if (x[r] > 0.65 + 0.1 * c)
        break;
      s += a * x[r] * x[r];
    }
    s += r * x[c];
  }
  return s;
}

/* Outer loop, middle loop and inner loop: the inner exit records go into
   the middle loop's rows, the middle loop's into the outer loop's. */
__attribute__((noinline)) double nest(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    int k = 0;
    for (int c = 0; c < n; c++) {
      double a = exp(0.2 * x[c] + i);
      for (int r = c; r < n; r++, k++)
        s += a * x[r] * x[(k + i) % n];
    }
  }
  return s;
}

static double call(int which, const double *x) {
  switch (which) {
  case 0:
    return tri(x, D);
  case 1:
    return lens(x, Lens, D);
  case 2:
    return early(x, D);
  default:
    return nest(x, D);
  }
}

static void grad(int which, const double *x, double *g) {
  switch (which) {
  case 0:
    __enzyme_autodiff((void *)tri, enzyme_dup, x, g, enzyme_const, D);
    break;
  case 1:
    __enzyme_autodiff((void *)lens, enzyme_dup, x, g, enzyme_const, Lens,
                      enzyme_const, D);
    break;
  case 2:
    __enzyme_autodiff((void *)early, enzyme_dup, x, g, enzyme_const, D);
    break;
  default:
    __enzyme_autodiff((void *)nest, enzyme_dup, x, g, enzyme_const, D);
  }
}

static double tangent(int which, const double *x, const double *dx) {
  switch (which) {
  case 0:
    return __enzyme_fwddiff((void *)tri, enzyme_dup, x, dx, enzyme_const, D);
  case 1:
    return __enzyme_fwddiff((void *)lens, enzyme_dup, x, dx, enzyme_const,
                            Lens, enzyme_const, D);
  case 2:
    return __enzyme_fwddiff((void *)early, enzyme_dup, x, dx, enzyme_const, D);
  default:
    return __enzyme_fwddiff((void *)nest, enzyme_dup, x, dx, enzyme_const, D);
  }
}

int main(void) {
  double v[NX], want[NX];
  for (int i = 0; i < NX; i++)
    v[i] = 0.3 * ((i * 7) % 11) - 1.1;
  for (int which = 0; which < 4; which++) {
    int nx = which == 0 ? NX : D;
    double g[NX] = {0};
    grad(which, v, g);
    if (which == 0)
      tri_analytic(v, D, want);
    for (int i = 0; i < nx; i++) {
      double vp[NX], vm[NX], dv[NX] = {0}, h = 1e-6;
      for (int k = 0; k < NX; k++)
        vp[k] = vm[k] = v[k];
      vp[i] += h;
      vm[i] -= h;
      dv[i] = 1;
      double fd = (call(which, vp) - call(which, vm)) / (2 * h);
      if (which == 0)
        CHECK_CLOSE(g[i], want[i], 1e-12);
      CHECK_CLOSE(g[i], fd, 1e-6);
      CHECK_CLOSE(tangent(which, v, dv), g[i], 1e-12);
    }
  }
  return check_finish();
}
