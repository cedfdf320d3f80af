/* OpenMP regions in a function given a shadow struct the caller zeroes
 * (`struct S ds = {0}`): values with derivatives written through the null
 * shadow pointer by the region's threads and read back by a later region
 * (other threads, other iterations) kept no derivative: the workers had no
 * null-shadow session (at -O2 too, wrong with 2 and 4 threads). They now
 * use the session of the request that runs the region. Reverse and forward
 * mode, teams of 1, 2 and 4 threads, static and dynamic schedules;
 * analytic values, central differences and forward against reverse. */
#include "check.h"

#include <math.h>
#include <omp.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 64 };

struct S {
  double *p;
  double k;
};

/* p[i] = k x[i]^2 (static schedule); r = sum p[N-1-i] sin(x[i]) (dynamic
 * schedule: another thread reads what one wrote). */
static double regions(struct S *s, const double *x) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; ++i)
    s->p[i] = x[i] * x[i] * s->k;
  double r = 0;
#pragma omp parallel for reduction(+ : r) schedule(dynamic, 5)
  for (int i = 0; i < N; ++i)
    r += s->p[N - 1 - i] * sin(x[i]);
  return r;
}

static double value(const double *x, double k) {
  double buf[N];
  struct S s = {buf, k};
  return regions(&s, x);
}

int main(void) {
  const double k = 1.5, h = 1e-6;
  double x[N], buf[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.1 + 0.03 * i;
  for (int t = 1; t <= 4; t *= 2) {
    omp_set_num_threads(t);
    struct S s = {buf, k}, ds = {0};
    double dx[N] = {0};
    __enzyme_autodiff((void *)regions, enzyme_dup, &s, &ds, enzyme_dup, x, dx);
    CHECK_TRUE(ds.p == NULL);
    double want_k = 0;
    for (int i = 0; i < N; ++i) {
      int j = N - 1 - i;
      /* d/dx_i: from p[i] (read at j) and from sin(x[i]) */
      CHECK_CLOSE(dx[i],
                  2 * k * x[i] * sin(x[j]) + k * x[j] * x[j] * cos(x[i]),
                  1e-12);
      want_k += x[j] * x[j] * sin(x[i]);
    }
    CHECK_CLOSE(ds.k, want_k, 1e-12);
    for (int i = 0; i < N; i += 9) {
      double xp[N], xm[N];
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      xp[i] += h;
      xm[i] -= h;
      CHECK_CLOSE(dx[i], (value(xp, k) - value(xm, k)) / (2 * h), 1e-6);
      struct S ts = {0};
      double tx[N] = {0};
      tx[i] = 1;
      double d = __enzyme_fwddiff((void *)regions, enzyme_dup, &s, &ts,
                                  enzyme_dup, x, tx);
      CHECK_CLOSE(d, dx[i], 1e-12);
      CHECK_TRUE(ts.p == NULL);
    }
  }
  return check_finish();
}
