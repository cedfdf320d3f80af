/* Addresses kept as uintptr_t and exchanged by a C function that takes
 * pointers to them and is never inlined (issue 33), in reverse and forward
 * mode: two variables, and two elements of an array. Until 2026-12-07 the
 * function's integer loads and stores (typed `uintptr_t` from -O1 on) moved
 * no shadow, and the derivatives read through the exchanged addresses were
 * wrong without an error at -O1 to -O3. Each gradient against central
 * differences, the analytic values and the tangents, at -O0 to -O3. */
#include "check.h"

#include <math.h>
#include <stdint.h>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

__attribute__((noinline)) static void xchg(uintptr_t *a, uintptr_t *b) {
  uintptr_t t = *a;
  *a = *b;
  *b = t;
}

/* (A macro: an address passed by value is an integer parameter.) */
#define at(a) (*(const double *)(a))

/* x[0] and x[2] exchanged when x[1] > 0: 2 sin(x2) + x0 x1 + x1. */
static double variables(double *x) {
  uintptr_t a = (uintptr_t)x, b = (uintptr_t)(x + 2);
  if (x[1] > 0)
    xchg(&a, &b);
  return 2 * sin(at(a)) + at(b) * x[1] + x[1];
}

static double elements(double *x) {
  uintptr_t a[N] = {(uintptr_t)x, (uintptr_t)(x + 1), (uintptr_t)(x + 2)};
  if (x[1] > 0)
    xchg(&a[0], &a[2]);
  return 2 * sin(at(a[0])) + at(a[2]) * x[1] + at(a[1]);
}

typedef double (*Fn)(double *);

static void check(Fn f, const char *name) {
  const double x0[N] = {0.4, 0.75, 1.1};
  const double want[N] = {x0[1], x0[0] + 1, 2 * cos(x0[2])};
  double x[N], g[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  for (int i = 0; i < N; ++i) {
    double xp[N], xm[N], dx[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x[j] = x0[j];
    xp[i] += h;
    xm[i] -= h;
    double fd = (f(xp) - f(xm)) / (2 * h);
    dx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);
    printf("%s d/dx%d: reverse %.10g forward %.10g differences %.10g\n", name,
           i, g[i], t, fd);
    CHECK_CLOSE(g[i], fd, 1e-6);
    CHECK_CLOSE(t, g[i], 1e-12);
    CHECK_CLOSE(g[i], want[i], 1e-12);
  }
}

int main(void) {
  check(variables, "xchg of variables");
  check(elements, "xchg of elements");
  return check_finish();
}
