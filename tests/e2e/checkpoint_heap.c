/* A loop marked ADCC_CHECKPOINT whose state is on the heap
 * (docs/checkpointing.md): a block of doubles that a local pointer
 * variable holds, allocated before the loop (malloc, calloc), written by
 * the loop through the variable and in a function it calls, with a local
 * scalar beside it. Counted loops (revolve, interval) and a `while`
 * (online schedule); gradients equal those of the same loop taped whole,
 * for several counts, sizes and budgets; central differences; forward
 * mode and forward over reverse (a Hessian-vector product) through it; the
 * primal and the block after the loop are the plain loop's. */
#include "check.h"

#include <adcc.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static void step(double *y, const double *p, int m) {
  double first = y[0];
  for (int k = 0; k + 1 < m; ++k)
    y[k] += 0.1 * (p[0] * sin(y[k + 1]) - p[1] * y[k] * y[k]);
  y[m - 1] += 0.1 * cos(first);
}

/* What the loop leaves, summed with the running cost. */
static double finish(double *y, int m, double cost) {
  double r = cost;
  for (int k = 0; k < m; ++k)
    r += y[k] * y[k];
  free(y);
  return r;
}

static void start(double *y, const double *y0, int m) {
  for (int k = 0; k < m; ++k)
    y[k] += y0[k];
}

static double taped(const double *y0, const double *p, int m, long n, long s) {
  (void)s;
  double *y = malloc(m * sizeof *y), cost = 0;
  for (int k = 0; k < m; ++k)
    y[k] = 0;
  start(y, y0, m);
  for (long i = 0; i < n; ++i) {
    step(y, p, m);
    cost += 0.01 * y[0] * y[m - 1];
  }
  return finish(y, m, cost);
}

static double revolve(const double *y0, const double *p, int m, long n,
                      long s) {
  double *y = malloc(m * sizeof *y), cost = 0;
  for (int k = 0; k < m; ++k)
    y[k] = 0;
  start(y, y0, m);
  ADCC_CHECKPOINT(s) for (long i = 0; i < n; ++i) {
    step(y, p, m);
    cost += 0.01 * y[0] * y[m - 1];
  }
  return finish(y, m, cost);
}

static double interval(const double *y0, const double *p, int m, long n,
                       long s) {
  double *y = calloc(m, sizeof *y), cost = 0;
  start(y, y0, m);
  ADCC_CHECKPOINT(s, ADCC_INTERVAL) for (long i = 0; i < n; ++i) {
    step(y, p, m);
    cost += 0.01 * y[0] * y[m - 1];
  }
  return finish(y, m, cost);
}

static double online(const double *y0, const double *p, int m, long n, long s) {
  double *y = malloc(m * sizeof *y), cost = 0;
  for (int k = 0; k < m; ++k)
    y[k] = 0;
  start(y, y0, m);
  long i = 0;
  ADCC_CHECKPOINT(s) while (i < n) {
    step(y, p, m);
    cost += 0.01 * y[0] * y[m - 1];
    ++i;
  }
  return finish(y, m, cost);
}

typedef double (*objective)(const double *, const double *, int, long, long);

#define GRADIENT(F)                                                            \
  static void grad_##F(const double *y0, double *dy, const double *p,          \
                       double *dp, int m, long n, long s) {                    \
    __enzyme_autodiff((void *)F, enzyme_dup, y0, dy, enzyme_dup, p, dp,        \
                      enzyme_const, m, enzyme_const, n, enzyme_const, s);      \
  }

GRADIENT(taped)
GRADIENT(revolve)
GRADIENT(interval)
GRADIENT(online)

typedef void (*gradient)(const double *, double *, const double *, double *,
                         int, long, long);

enum { MAXM = 6 };
static const double Y0[MAXM] = {0.3, 0.7, -0.2, 0.5, 0.1, -0.4};
static const double P[2] = {1.3, 0.4};

static void check(const char *name, objective f, gradient g, int m, long n,
                  long s) {
  CHECK_CLOSE(f(Y0, P, m, n, s), taped(Y0, P, m, n, s), 1e-14);
  double dy[MAXM] = {0}, dp[2] = {0}, wy[MAXM] = {0}, wp[2] = {0};
  g(Y0, dy, P, dp, m, n, s);
  grad_taped(Y0, wy, P, wp, m, n, s);
  for (int k = 0; k < m; ++k)
    CHECK_CLOSE(dy[k], wy[k], 1e-12);
  for (int k = 0; k < 2; ++k)
    CHECK_CLOSE(dp[k], wp[k], 1e-12);
  const double eps = 1e-6;
  for (int k = 0; k < m; ++k) {
    double yp[MAXM], ym[MAXM];
    for (int j = 0; j < m; ++j)
      yp[j] = ym[j] = Y0[j];
    yp[k] += eps, ym[k] -= eps;
    CHECK_CLOSE(dy[k], (f(yp, P, m, n, s) - f(ym, P, m, n, s)) / (2 * eps),
                1e-7);
  }
  if (check_failures)
    printf("  (%s, %d values, %ld steps, %ld snapshots)\n", name, m, n, s);
}

/* Forward mode and forward over reverse through the heap state. */
static double tangent(const double *y0, const double *v, int m, long n,
                      long s) {
  return __enzyme_fwddiff((void *)revolve, enzyme_dup, y0, v, enzyme_const, P,
                          enzyme_const, m, enzyme_const, n, enzyme_const, s);
}

static void gradc(const double *y0, double *dy, int m, long n, long s) {
  __enzyme_autodiff((void *)revolve, enzyme_dup, y0, dy, enzyme_const, P,
                    enzyme_const, m, enzyme_const, n, enzyme_const, s);
}

static void gradc_taped(const double *y0, double *dy, int m, long n, long s) {
  __enzyme_autodiff((void *)taped, enzyme_dup, y0, dy, enzyme_const, P,
                    enzyme_const, m, enzyme_const, n, enzyme_const, s);
}

#define HVP(G, v, hv, m, n, s)                                                 \
  do {                                                                         \
    double dy_[MAXM] = {0};                                                    \
    __enzyme_fwddiff((void *)G, enzyme_dup, Y0, v, enzyme_dup, dy_, hv,        \
                     enzyme_const, m, enzyme_const, n, enzyme_const, s);       \
  } while (0)

int main(void) {
  static const int Sizes[] = {1, 3, 6};
  static const long Steps[] = {1, 2, 5, 17};
  static const long Budgets[] = {1, 3, 100};
  for (unsigned a = 0; a < 3; ++a)
    for (unsigned b = 0; b < 4; ++b)
      for (unsigned c = 0; c < 3; ++c) {
        int m = Sizes[a];
        long n = Steps[b], s = Budgets[c];
        check("revolve", revolve, grad_revolve, m, n, s);
        check("interval", interval, grad_interval, m, n, s);
        check("online", online, grad_online, m, n, s);
      }
  const double v[MAXM] = {0.5, -0.2, 0.3, 0.1, -0.7, 0.4};
  double dy[MAXM] = {0}, dp[2] = {0};
  grad_revolve(Y0, dy, P, dp, 6, 9, 2);
  double dot = 0;
  for (int k = 0; k < 6; ++k)
    dot += dy[k] * v[k];
  CHECK_CLOSE(tangent(Y0, v, 6, 9, 2), dot, 1e-12);
  double hv[MAXM] = {0}, want[MAXM] = {0};
  HVP(gradc, v, hv, 6, 9L, 2L);
  HVP(gradc_taped, v, want, 6, 9L, 2L);
  for (int k = 0; k < 6; ++k)
    CHECK_CLOSE(hv[k], want[k], 1e-11);
  return check_finish();
}
