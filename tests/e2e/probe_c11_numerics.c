/* Idiom corpus, C99/C11 numerics: <tgmath.h>'s type-generic sin/exp,
 * <complex.h> (cexp, csin, cpow, creal, cimag, cabs), long double
 * (sinl, expl, sqrtl on x87), an always_inline helper, an aligned local
 * array read through __builtin_assume_aligned, `#pragma omp simd
 * reduction` (-fopenmp-simd), __builtin_expect, a _Generic max macro, a
 * struct of restrict-qualified pointers (structure of arrays). Both
 * modes, central differences (probe_check.h). No bug found when written
 * (2026-12-06). */
#include "probe_check.h"
#include <tgmath.h>
#include <complex.h>
#include <stdlib.h>
static double tg(const double *x) {
  double f = x[0];
  double a = sin(x[1]) + exp(f) ;
  double complex z = x[0] + I * x[1];
  double complex w = cexp(z) * csin(z) + cpow(z, 2.0);
  return a + creal(w) * cimag(w) + cabs(z);
}
static double ld(const double *x) {
  long double a = x[0], b = x[1];
  long double r = sinl(a) * expl(b) + a * b * b + sqrtl(a * a + 1.0L);
  return (double)r;
}
static inline __attribute__((always_inline)) double sq(double v) { return v * v; }
static double hints(const double *x) {
  double buf[8] __attribute__((aligned(32)));
  for (int i = 0; i < 8; ++i) buf[i] = x[i % 2] * (i + 1);
  const double *p = __builtin_assume_aligned(buf, 32);
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < 8; ++i) s += sq(p[i]);
  if (__builtin_expect(s > 1e6, 0)) return 0;
  return s;
}
#define mymax(a, b) _Generic((a), float: fmaxf, default: fmax)(a, b)
static double gen(const double *x) { return mymax(x[0] * 2, x[1]) * x[0] + mymax(x[1], 0.5); }
typedef struct { double *restrict u; double *restrict v; int n; } soa;
static void axpy_soa(soa *s, double a) { for (int i = 0; i < s->n; ++i) s->v[i] += a * s->u[i]; }
static double soa_f(const double *x) {
  double u[3] = {x[0], x[1], x[0] * x[1]}, v[3] = {1, 2, 3};
  soa s = {u, v, 3};
  axpy_soa(&s, x[1]);
  axpy_soa(&s, x[0]);
  return v[0] * v[1] + v[2];
}
int main(void) {
  PROBE(tg, 2, 0.3, 0.7);
  PROBE(ld, 2, 0.3, 0.7);
  PROBE(hints, 2, 0.3, 0.7);
  PROBE(gen, 2, 0.3, 0.7);
  PROBE(soa_f, 2, 0.3, 0.7);
  return check_finish();
}
