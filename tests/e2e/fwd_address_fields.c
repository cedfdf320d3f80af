/* Forward mode through arrays of doubles reached through integer fields
 * (`uintptr_t r`, used as `(double *)c->r`): the shadow struct holds the
 * shadow array's address the same way, and the tangent of the integer is
 * that address. Written and read back through the field, and only read;
 * tangents against analytic values and central differences, at -O0 to
 * -O3. (Reverse mode refuses such fields: lit
 * errors/address-in-integer-field.c.) */
#include "check.h"

#include <math.h>
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

struct cells {
  uintptr_t r;
  int n;
};

/* r[i] = x[i]^2; sum (i + 1) r[i] sin(r[i]) */
static double through_field(struct cells *c, const double *x) {
  double *r = (double *)c->r;
  for (int i = 0; i < c->n; ++i)
    r[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < c->n; ++i)
    s += (i + 1) * r[i] * sin(r[i]);
  return s;
}

/* sum sin(x_i) x_i over the array the field holds */
static double read_only(const struct cells *c) {
  const double *p = (const double *)c->r;
  double s = 0;
  for (int i = 0; i < c->n; ++i)
    s += sin(p[i]) * p[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.1, 0.8, 1.7}, v[N] = {1.0, -0.5, 2.0, 0.25};
  double r[N], dr[N] = {0};
  struct cells c = {(uintptr_t)r, N}, dc = {(uintptr_t)dr, N};
  double want = 0;
  for (int i = 0; i < N; ++i) {
    double q = x[i] * x[i];
    want += (i + 1) * (sin(q) + q * cos(q)) * 2 * x[i] * v[i];
  }
  double t = __enzyme_fwddiff((void *)through_field, enzyme_dup, &c, &dc,
                              enzyme_dup, x, v);
  CHECK_CLOSE(t, want, 1e-12);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dr[i], 2 * x[i] * v[i], 1e-14);
  double h = 1e-6, xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  double fd = (through_field(&c, xp) - through_field(&c, xm)) / (2 * h);
  CHECK_CLOSE(t, fd, 1e-6);

  double p[N] = {0.4, 1.2, -0.9, 2.1}, dp[N] = {1, 2, -1, 0.5};
  struct cells a = {(uintptr_t)p, N}, da = {(uintptr_t)dp, N};
  double want2 = 0;
  for (int i = 0; i < N; ++i)
    want2 += (cos(p[i]) * p[i] + sin(p[i])) * dp[i];
  CHECK_CLOSE(__enzyme_fwddiff((void *)read_only, enzyme_dup, &a, &da), want2,
              1e-13);
  return check_finish();
}
