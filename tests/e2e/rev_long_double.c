/* long double (x86's 80-bit format) in differentiated code: arithmetic,
 * memory, and the libm functions' long double forms (sinl, expl, powl, ...)
 * and intrinsics (llvm.fmuladd.f80 from contracted a * b + c), in reverse
 * and forward mode, against closed forms and central differences taken in
 * long double. Before, every libm `...l` call was "no object file defines
 * it" and a contracted multiply-add was "not supported yet". */
#include "check.h"

#include <math.h>
#include <string.h>

void __enzyme_autodiff(void *, ...);
long double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 4

/* uses every long double rule the test covers */
static long double f(const long double *x) {
  long double s = 0;
  s += sinl(x[0]) * expl(x[1]) + logl(x[2]) / sqrtl(x[3]);
  s += powl(x[2], x[3]) + atan2l(x[1], x[2]) + hypotl(x[0], x[3]);
  s += tanhl(x[0] * x[1]) + cbrtl(x[2]) + erfl(x[3]) + log1pl(x[1]);
  s += fmal(x[0], x[1], x[2]) + fabsl(x[0] - 1) + ldexpl(x[3], 3);
  s += x[0] * x[1] + x[2]; /* contracted into llvm.fmuladd.f80 */
  return s;
}

/* long double memory: a local table written and read back, a division */
static long double table(const long double *x) {
  long double buf[N];
  for (int i = 0; i < N; ++i)
    buf[i] = x[i] * (i + 1) + x[(i + 1) % N];
  long double r = 0;
  for (int i = 0; i < N; ++i)
    r += buf[i] * buf[(i + 2) % N];
  return r / x[0];
}

static long double fd(long double (*g)(const long double *), long double *x,
                      int i) {
  long double saved = x[i], h = 1e-7L;
  x[i] = saved + h;
  long double up = g(x);
  x[i] = saved - h;
  long double down = g(x);
  x[i] = saved;
  return (up - down) / (2 * h);
}

#define CHECK_GRADIENT(g)                                                      \
  do {                                                                         \
    long double x[N] = {0.7L, 0.4L, 1.3L, 0.9L}, dx[N] = {0};                  \
    __enzyme_autodiff((void *)g, enzyme_dup, x, dx);                           \
    for (int i = 0; i < N; ++i) {                                              \
      long double t[N] = {0};                                                  \
      t[i] = 1;                                                                \
      long double fwd = __enzyme_fwddiff((void *)g, enzyme_dup, x, t);         \
      CHECK_CLOSE((double)dx[i], (double)fd(g, x, i), 1e-8);                   \
      CHECK_CLOSE((double)fwd, (double)dx[i], 1e-15);                          \
    }                                                                          \
  } while (0)

int main(void) {
  CHECK_GRADIENT(f);
  CHECK_GRADIENT(table);
  /* closed form: d/dx0 of sinl(x0) e^x1 at x = (0.7, 0.4) */
  {
    long double x[N] = {0.7L, 0.4L, 1.3L, 0.9L}, dx[N] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
    long double want = cosl(0.7L) * expl(0.4L) + 0.7L / hypotl(0.7L, 0.9L) +
                       0.4L * (1 - tanhl(0.28L) * tanhl(0.28L)) + 0.4L - 1 +
                       0.4L;
    CHECK_CLOSE((double)dx[0], (double)want, 1e-15);
  }
  return check_finish();
}
