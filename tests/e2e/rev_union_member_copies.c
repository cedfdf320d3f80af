/* A struct holding a union of two floats and a long ({float f[2]; long
 * l;}) beside a double, assigned member by member by a helper that is not
 * inlined (`dst->p = src->p; dst->w = 2 * src->w;`). The union's copy is
 * one i64 load and store typed "omnipotent char" from -O1 (a memcpy at
 * -O0); only the caller says that its bytes are two floats. At -O3
 * argument promotion passes the union to the helper as one i64 made of
 * the two floats' bits. Reverse mode took the copy for an integer move
 * (gradient 0 at -O1 and -O2), and at -O3 both modes lost the floats,
 * until 2026-12-07. The gradient by reverse mode against analytic values
 * and central differences, forward mode against reverse. */
#include "check.h"
#include "gradient_check.h"

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

__attribute__((noinline)) static void assign(rec *dst, const rec *src) {
  dst->p = src->p;
  dst->w = 2 * src->w;
}

double f(const double *x) {
  rec a, b;
  a.p.f[0] = (float)x[0];
  a.p.f[1] = (float)x[1];
  a.w = x[2];
  assign(&b, &a);
  return b.p.f[0] * b.p.f[1] * b.w + b.p.f[1];
}

int main(void) {
  double x[3] = {0.5, 1.5, -2.0}, g[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  /* analytic: the values are floats exactly; b.w = 2 w */
  double want[3] = {x[1] * 2 * x[2], x[0] * 2 * x[2] + 1, 2 * x[0] * x[1]};
  CHECK_GRADIENT(f, x, g, want, 3, 1e-3, 1e-4);
  return check_finish();
}
