/* Stencil-code idioms as C numerical programs write them: a heat equation
 * whose two malloc'd buffers swap every step (`t = u; u = v; v = t;`),
 * copied in with memcpy and with a loop (which -O1 turns into memcpy);
 * a variable-length 2-D array passed as `double a[n][m]`; static arrays a
 * function keeps between calls; a table of libm functions called through
 * pointers (`double (*table[])(double) = {sin, cos, exp, ...}`). Gradients
 * against central differences, forward mode against reverse mode.
 * (Before: the copy into a swapped buffer was "a memory copy whose contents
 * cannot be typed" at -O1 and above, and at -O0 the table's calls stopped
 * the program: "a function that has no derivative in this program".) */
#include "rev_check.h"

#include <stdlib.h>
#include <string.h>

extern int enzyme_const;

#define N 8

static double coef = 0.1;

static double heat_from(double *u, double *v, int steps) {
  for (int s = 0; s < steps; ++s) {
    v[0] = u[0];
    v[N - 1] = u[N - 1];
    for (int i = 1; i < N - 1; ++i)
      v[i] = u[i] + coef * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
    double *t = u;
    u = v;
    v = t;
  }
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += u[i] * u[i] * (i + 1);
  return r;
}

static double heat_memcpy(const double *restrict u0, int steps) {
  double *u = malloc(N * sizeof(double)), *v = malloc(N * sizeof(double));
  memcpy(u, u0, N * sizeof(double));
  double r = heat_from(u, v, steps);
  free(u);
  free(v);
  return r;
}

static double heat_loop(const double *u0, int steps) {
  double *u = malloc(N * sizeof(double)), *v = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    u[i] = u0[i];
  double r = heat_from(u, v, steps);
  free(u);
  free(v);
  return r;
}

static double fill(int n, int m, double a[n][m], const double *x) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a[i][j] = x[i] * x[(j + 1) % N] + i - j;
  double r = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      r += a[i][j] * a[j % n][i % m];
  return r;
}

static double vla(const double *x) {
  int n = 3, m = 4;
  double a[n][m];
  return fill(n, m, a, x);
}

static double statics(const double *x) {
  static double cache[N];
  for (int i = 0; i < N; ++i)
    cache[i] = x[i] * 2;
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += cache[i] * cache[(i + 3) % N];
  return r;
}

typedef double (*unary)(double);
static double sq(double t) { return t * t; }
static unary table[N] = {sin, cos, exp, sq, tanh, atan, log1p, sqrt};

static double through_table(const double *x) {
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += table[i](fabs(x[i]) * 0.5 + 0.1) * x[(i + 1) % N];
  return r;
}

static double heat5_memcpy(const double *x) { return heat_memcpy(x, 5); }
static double heat5_loop(const double *x) { return heat_loop(x, 5); }

/* gradient of f (one enzyme_const int after x when steps >= 0) against
 * central differences, and forward mode along a random direction */
#define CHECK_FN(f, f5, steps)                                                 \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = rev_rand();                                                       \
    if ((steps) >= 0)                                                          \
      __enzyme_autodiff((void *)f, x, g, enzyme_const, (steps));               \
    else                                                                       \
      __enzyme_autodiff((void *)f, x, g);                                      \
    CHECK_GRAD(f5, x, N, g, NULL);                                             \
    double want = rev_dir(g, v, N);                                            \
    double got = (steps) >= 0 ? __enzyme_fwddiff((void *)f, x, v,              \
                                                  enzyme_const, (steps))       \
                              : __enzyme_fwddiff((void *)f, x, v);             \
    CHECK_CLOSE(got, want, REV_TOL_DOT);                                       \
  } while (0)

int main(void) {
  CHECK_FN(heat_memcpy, heat5_memcpy, 5);
  CHECK_FN(heat_loop, heat5_loop, 5);
  CHECK_FN(vla, vla, -1);
  CHECK_FN(statics, statics, -1);
  CHECK_FN(through_table, through_table, -1);
  return check_finish();
}
