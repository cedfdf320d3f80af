/* Arrays of structs holding a union of two floats and a long ({float
 * f[2]; long l;}, whose IR type names the long only) beside a double,
 * copied whole by a helper that reads nothing (a struct assignment: a
 * memcpy at -O0, a loop of them from -O1). Only the callers say what the
 * union's bytes are: they read them as floats, so the copy moves the
 * floats' adjoints. Refused until 2026-12-06 ("a memory copy whose
 * contents cannot be typed"); where a caller also reads the long, it
 * still is (lit errors/union-float-copies.c). The gradient by reverse
 * mode against central differences, forward mode against reverse. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  float f[2];
  long l;
} pair;
typedef struct {
  pair p;
  double w;
} rec;

#define N 3

__attribute__((noinline)) static void copy(rec *dst, const rec *src, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = src[i];
}

/* The values in a flat array, the records built and copied inside. */
double f(const double *x, int n) {
  rec in[N], out[N];
  for (int i = 0; i < n; ++i) {
    in[i].p.f[0] = (float)x[3 * i];
    in[i].p.f[1] = (float)x[3 * i + 1];
    in[i].w = x[3 * i + 2];
  }
  copy(out, in, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i].p.f[0] * out[i].p.f[1] * out[i].w + out[i].p.f[1];
  return s;
}

int main(void) {
  double x[3 * N] = {0.5, 1.5, -2.0, 1.25, -0.75, 3.0, 2.0, 0.25, 0.5};
  double g[3 * N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < 3 * N; ++i) {
    /* analytic: the values are floats exactly */
    int r = i / 3, k = i % 3;
    double a = x[3 * r], b = x[3 * r + 1], w = x[3 * r + 2];
    double want = k == 0 ? b * w : k == 1 ? a * w + 1 : a * b;
    CHECK_CLOSE(g[i], want, 1e-6);
    double h = 1e-3, xp[3 * N], xm[3 * N];
    for (int j = 0; j < 3 * N; ++j)
      xp[j] = xm[j] = x[j];
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(g[i], (f(xp, N) - f(xm, N)) / (2 * h), 1e-4);
    double e[3 * N] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N);
    CHECK_CLOSE(t, g[i], 1e-9);
  }
  return check_finish();
}
