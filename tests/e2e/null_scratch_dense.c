/* Null shadow pointers in a file that makes dense views (__enzyme_todense):
 * a shadow struct the caller zeroes (`struct S ds = {0}`) leaves a null
 * shadow beside the pointer s->p to data; what the function writes through
 * it and reads back keeps its derivative through a scratch shadow of the
 * primal address (in files with views it went to a sink at -O0: the
 * derivative was lost without an error). Forward mode with a one-hot view
 * as the seed of x and the zeroed shadow struct in the same request,
 * reverse mode, checked against analytic values and central differences. */
#include "check.h"

double *__enzyme_todense(void *, void *, ...);
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_out, enzyme_const;

enum { N = 3 };

struct S {
  double *p;
  double k;
};

/* p[0] = x0 x1; p[1] = p[0] + x2^2; r = k p[1]^2 + sin x0 */
static double f(struct S *s, const double *x) {
  s->p[0] = x[0] * x[1];
  s->p[1] = s->p[0] + x[2] * x[2];
  return s->k * s->p[1] * s->p[1] + sin(x[0]);
}
static void gradient(const double *x, double k, double g[N]) {
  double q = x[0] * x[1] + x[2] * x[2];
  g[0] = 2 * k * q * x[1] + cos(x[0]);
  g[1] = 2 * k * q * x[0];
  g[2] = 4 * k * q * x[2];
}
static double value(const double *x, double k) {
  double buf[2] = {0};
  struct S s = {buf, k};
  return f(&s, x);
}

/* A one-hot seed at element `hot`: never written. */
static double seed_load(long offset, long hot) {
  return offset / (long)sizeof(double) == hot ? 1.0 : 0.0;
}
static void seed_store(double v, long offset, long hot) {
  (void)offset;
  (void)hot;
  if (v != 0)
    abort();
}

int main(void) {
  const double x[N] = {0.6, -1.3, 0.8}, k = 0.75, h = 1e-6;
  double g[N];
  gradient(x, k, g);
  for (long i = 0; i < N; ++i) {
    double buf[2] = {0};
    struct S s = {buf, k}, ds = {0};
    double *seed = __enzyme_todense((void *)seed_load, (void *)seed_store, i);
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup,
                                x, seed);
    CHECK_CLOSE(t, g[i], 1e-12);
    CHECK_TRUE(ds.p == NULL);
    double xp[N] = {x[0], x[1], x[2]}, xm[N] = {x[0], x[1], x[2]};
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(t, (value(xp, k) - value(xm, k)) / (2 * h), 1e-6);
  }
  double buf[2] = {0}, dx[N] = {0};
  struct S s = {buf, k}, ds = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup, x, dx);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], g[i], 1e-12);
  double q = x[0] * x[1] + x[2] * x[2];
  CHECK_CLOSE(ds.k, q * q, 1e-12);
  CHECK_TRUE(ds.p == NULL);
  return check_finish();
}
