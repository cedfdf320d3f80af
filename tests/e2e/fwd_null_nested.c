/* Forward over forward through null shadow pointers at both levels: the
 * inner request gives a shadow struct it zeroes (`struct S ds = {0}`), the
 * outer request too, so the pointer s->p to data has a null shadow at each
 * level. What each level writes through its null shadow and reads back
 * keeps its derivative through a scratch shadow of the primal address,
 * one per derivative level (the two levels' scratch shadows were the same
 * memory at -O0: the outer tangents overwrote the inner ones). Second
 * derivatives against analytic values and central differences of the
 * first derivative; a callee that writes and reads the data (the callee's
 * outer derivative gets its caller's level); a loop over an array. */
#include "fwd_check.h"

enum { N = 4 };

struct S {
  double *p;
  double k;
};

/* p[0] = x^2; r = p[0] * p[0] * k = k x^4 */
static double square_twice(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->p[0] * s->k;
}

/* p[1] = p[0] * x; r = p[1] * p[1] */
__attribute__((noinline)) static double product(struct S *s, double x) {
  s->p[1] = s->p[0] * x;
  return s->p[1] * s->p[1];
}

/* p[0] = sin x; r = k (x sin x)^2 */
static double through_callee(struct S *s, double x) {
  s->p[0] = sin(x);
  return product(s, x) * s->k;
}

/* p[i] = x c_i; r = k sum_i p[i]^3 = k x^3 sum c_i^3 */
static const double C[N] = {0.5, -1.25, 2.0, 0.75};
static double cubes(struct S *s, double x) {
  for (int i = 0; i < N; ++i)
    s->p[i] = x * C[i];
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += s->p[i] * s->p[i] * s->p[i];
  return r * s->k;
}

typedef double (*fn)(struct S *, double);

/* d/dx f(s, x), with a shadow struct zeroed here: a null shadow of s->p. */
static double inner(fn f, struct S *s, double x) {
  struct S ds = {0};
  return __enzyme_fwddiff((void *)f, enzyme_dup, s, &ds, enzyme_dup, x, 1.0);
}
static double inner_square(struct S *s, double x) {
  return inner(square_twice, s, x);
}
static double inner_callee(struct S *s, double x) {
  return inner(through_callee, s, x);
}
static double inner_cubes(struct S *s, double x) {
  return inner(cubes, s, x);
}

/* d/dx (or along dk) of d/dx f, the outer shadow struct zeroed as well. */
static double outer(fn df, double x, double k, double dx, double dk) {
  double buf[N] = {0};
  struct S s = {buf, k}, ts = {NULL, dk};
  double t = __enzyme_fwddiff((void *)df, enzyme_dup, &s, &ts, enzyme_dup, x,
                              dx);
  CHECK_TRUE(ts.p == NULL);
  return t;
}

static fn g_df;
static double g_k;
static double first(double x) {
  double buf[N] = {0};
  struct S s = {buf, g_k};
  return g_df(&s, x);
}

static void check(fn df, double x, double k, double d2x, double d2xk) {
  g_df = df;
  g_k = k;
  double t = outer(df, x, k, 1.0, 0.0);
  CHECK_CLOSE(t, d2x, FWD_TOL_EXACT);
  CHECK_CLOSE(t, fd_central(first, x), FWD_TOL_FD);
  CHECK_CLOSE(outer(df, x, k, 0.0, 1.0), d2xk, FWD_TOL_EXACT);
}

int main(void) {
  const double x = 0.7, k = 1.5;
  /* k x^4: 12 k x^2, d/dk 4 x^3 */
  double buf[N] = {0};
  struct S s = {buf, k};
  CHECK_CLOSE(inner_square(&s, x), 4 * k * x * x * x, FWD_TOL_EXACT);
  check(inner_square, x, k, 12 * k * x * x, 4 * x * x * x);
  /* k (x sin x)^2 = k u^2, u = x sin x: u' = sin x + x cos x,
     u'' = 2 cos x - x sin x; (k u^2)'' = 2k (u'^2 + u u'') */
  double u = x * sin(x), u1 = sin(x) + x * cos(x), u2 = 2 * cos(x) - x * sin(x);
  CHECK_CLOSE(inner_callee(&s, x), 2 * k * u * u1, FWD_TOL_EXACT);
  check(inner_callee, x, k, 2 * k * (u1 * u1 + u * u2), 2 * u * u1);
  /* k x^3 c3: 6 k x c3, d/dk 3 x^2 c3 */
  double c3 = 0;
  for (int i = 0; i < N; ++i)
    c3 += C[i] * C[i] * C[i];
  check(inner_cubes, x, k, 6 * k * x * c3, 3 * x * x * c3);
  return check_finish();
}
