/* Pointers made from integers whose shadows adcc follows (issue 33, the
 * inttoptr task), in reverse and forward mode:
 *  (a) a tagged pointer, the low bit set and masked off;
 *  (b) an element's address computed as an integer, `u + k * 8`;
 *  (c) an address passed as a uint64_t parameter to a function that is
 *      not inlined;
 *  (d) addresses kept as integers in a local array, sorted by value and
 *      read through (until 2026-12-07 the sorted array's shadow stayed
 *      unsorted: each value got another's derivative, without an error,
 *      at -O0 and -O1);
 * (a) to (c) were refused at -O0 until 2026-12-07 ("the address of memory
 * with derivatives is kept in an integer variable"). Each gradient against
 * central differences and the tangents, at -O0 to -O3. */
#include "check.h"

#include <math.h>
#include <stdint.h>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

static double tagged(double *x) {
  uintptr_t u = (uintptr_t)x | 1;
  const double *p = (const double *)(u & ~(uintptr_t)1);
  return p[0] * p[1] + sin(p[2]);
}

static double offsets(double *x) {
  uintptr_t u = (uintptr_t)x;
  double s = 0;
  for (int k = 0; k < N; ++k)
    s += (k + 1) * sin(*(const double *)(u + k * 8)) * x[k];
  return s;
}

__attribute__((noinline)) static double weighted(uint64_t u, int n) {
  const double *p = (const double *)u;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i] * (i + 1);
  return s;
}
static double through_parameter(double *x) {
  return weighted((uint64_t)x, N) * x[1];
}

static double sorted(double *x) {
  uintptr_t a[N] = {(uintptr_t)(x + 2), (uintptr_t)x, (uintptr_t)(x + 1)};
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      if (a[j] < a[i]) {
        uintptr_t t = a[i];
        a[i] = a[j];
        a[j] = t;
      }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (i + 1) * sin(*(const double *)a[i]);
  return s;
}

#include "int_addresses_check.h"

int main(void) {
  check_gradient(tagged, "tagged", NULL);
  check_gradient(offsets, "offsets", NULL);
  check_gradient(through_parameter, "parameter", NULL);
  check_gradient(sorted, "sorted", NULL);
  /* Analytic values of (d): d/dx_i = (i + 1) cos(x_i). */
  {
    double x[N] = {0.4, 0.75, 1.1}, g[N] = {0};
    __enzyme_autodiff((void *)sorted, enzyme_dup, x, g);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(g[i], (i + 1) * cos(x[i]), 1e-12);
  }
  return check_finish();
}
