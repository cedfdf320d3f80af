/* Structs of a float and integers ({float v; int n;}, {int n; float v;},
 * {float v; short n, m;}) copied whole by helpers that are not inlined
 * (`*dst = *src`). At -O3 argument promotion passes such a struct to the
 * helper as one i64 packed from the float's bits and the integers (`or
 * (zext (bitcast float)), 3 << 32`, `or (shl (zext (bitcast float)), 32),
 * (zext n)`, the shorts with more shifts and ors), or loaded whole from
 * the struct's memory; both modes lost the float's derivative without a
 * word (gradient 0) until 2026-12-07. The gradient by reverse mode against
 * analytic values and central differences, forward mode against reverse. */
#include "check.h"
#include "gradient_check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  float v;
  int n;
} S;

typedef struct {
  int n;
  float v;
} T;

typedef struct {
  float v;
  short n, m;
} U;

__attribute__((noinline)) static void assign(S *dst, const S *src) {
  *dst = *src;
}

__attribute__((noinline)) static void assignT(T *dst, const T *src) {
  *dst = *src;
}

__attribute__((noinline)) static void assignU(U *dst, const U *src) {
  *dst = *src;
}

__attribute__((noinline)) static void scale(T *dst, const T *src) {
  dst->v = src->v * src->n;
  dst->n = src->n + 1;
}

__attribute__((noinline)) void fill(S *s, const double *x) {
  s->v = (float)(x[0] * x[1]);
  s->n = 3;
}

double f(const double *x) {
  /* the int a constant: 3 x0 x1 x2 */
  S a, b;
  a.v = (float)(x[0] * x[1]);
  a.n = 3;
  assign(&b, &a);
  /* the int first and computed: n = -2, c.v * x2 * c.n = 2 x0 x1 x2 */
  T p, q, c;
  p.n = (int)x[2];
  p.v = (float)(x[0] * x[1]);
  assignT(&q, &p);
  scale(&c, &q);
  /* the struct loaded whole from its memory: 3 x0^2 x1 */
  S d, e;
  fill(&d, x);
  assign(&e, &d);
  /* two shorts, computed (n = -2, m = 0): -2 x0 x1^2 */
  U u, w;
  u.v = (float)(x[0] * x[1]);
  u.n = (short)x[2];
  u.m = (short)(x[2] > 0);
  assignU(&w, &u);
  return b.v * x[2] * b.n + c.v * x[2] * c.n + e.v * e.n * x[0] +
         w.v * (w.n + w.m) * x[1];
}

int main(void) {
  double x[3] = {0.5, 1.5, -2.5}, g[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  /* analytic: x0 x1 is a float exactly;
   * f = 5 x0 x1 x2 + 3 x0^2 x1 - 2 x0 x1^2 */
  double want[3] = {5 * x[1] * x[2] + 6 * x[0] * x[1] - 2 * x[1] * x[1],
                    5 * x[0] * x[2] + 3 * x[0] * x[0] - 4 * x[0] * x[1],
                    5 * x[0] * x[1]};
  CHECK_GRADIENT(f, x, g, want, 3, 1e-3, 1e-3);
  return check_finish();
}
