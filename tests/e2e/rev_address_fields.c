/* Reverse mode through arrays of doubles reached through integer fields
 * (`uintptr_t r`, used as `(double *)c->r`, issue 33): the shadow struct
 * holds the shadow array's address the same way, and the integer loaded
 * from the field has that address as its shadow wherever it is made a
 * pointer again (directly or after address arithmetic). Refused until
 * 2026-12-06 ("a value with a derivative is stored into memory that has
 * no shadow", at -O0 "the address of memory with derivatives is kept in an
 * integer variable").
 *  (a) written and read back through the field;
 *  (b) only read, the element's address computed as an integer
 *      (`c->r + i * sizeof(double)`);
 *  (c) the field set inside the differentiated function from a pointer
 *      (`c->r = (uintptr_t)work`) and read back in a callee;
 * Each against the closed form, central differences and forward mode, at
 * -O0 to -O3. */
#include "check.h"

#include <math.h>
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

struct cells {
  uintptr_t r;
  int n;
};

/* (a) r[i] = x[i]^2; sum (i + 1) r[i] sin(r[i]) */
static double through_field(struct cells *c, const double *x) {
  double *r = (double *)c->r;
  for (int i = 0; i < c->n; ++i)
    r[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < c->n; ++i)
    s += (i + 1) * r[i] * sin(r[i]);
  return s;
}

/* (b) sum sin(p_i) p_i over the array the field holds */
static double read_only(const struct cells *c) {
  double s = 0;
  for (int i = 0; i < c->n; ++i) {
    const double *p = (const double *)(c->r + i * sizeof(double));
    s += sin(*p) * *p;
  }
  return s;
}

/* (c) work[i] = exp(x[i]) through the field; sum work[i] x[i] */
__attribute__((noinline)) static double dot_field(const struct cells *c,
                                                  const double *x) {
  const double *w = (const double *)c->r;
  double s = 0;
  for (int i = 0; i < c->n; ++i)
    s += w[i] * x[i];
  return s;
}
static double set_inside(struct cells *c, double *work, const double *x) {
  c->r = (uintptr_t)work;
  for (int i = 0; i < c->n; ++i)
    work[i] = exp(x[i]);
  return dot_field(c, x);
}

int main(void) {
  const double x0[N] = {0.3, -1.1, 0.8, 1.7};
  double h = 1e-6;

  /* (a) */
  {
    double x[N], g[N] = {0}, r[N], dr[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    struct cells c = {(uintptr_t)r, N}, dc = {(uintptr_t)dr, N};
    __enzyme_autodiff((void *)through_field, enzyme_dup, &c, &dc, enzyme_dup,
                      x, g);
    for (int i = 0; i < N; ++i) {
      double q = x[i] * x[i];
      double want = (i + 1) * (sin(q) + q * cos(q)) * 2 * x[i];
      double xp[N], xm[N], t[N] = {0}, dt[N] = {0};
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      double fd = (through_field(&c, xp) - through_field(&c, xm)) / (2 * h);
      t[i] = 1;
      struct cells tc = {(uintptr_t)dt, N};
      double fwd = __enzyme_fwddiff((void *)through_field, enzyme_dup, &c, &tc,
                                    enzyme_dup, x, t);
      CHECK_CLOSE(g[i], want, 1e-12);
      CHECK_CLOSE(fd, want, 1e-6);
      CHECK_CLOSE(fwd, want, 1e-12);
    }
    printf("(a) d/dx0 %.12f\n", g[0]);
  }

  /* (b) */
  {
    double p[N] = {0.4, 1.2, -0.9, 2.1}, dp[N] = {0};
    struct cells a = {(uintptr_t)p, N}, da = {(uintptr_t)dp, N};
    __enzyme_autodiff((void *)read_only, enzyme_dup, &a, &da);
    for (int i = 0; i < N; ++i) {
      double want = cos(p[i]) * p[i] + sin(p[i]);
      double t[N] = {0};
      t[i] = 1;
      struct cells ta = {(uintptr_t)t, N};
      double fwd = __enzyme_fwddiff((void *)read_only, enzyme_dup, &a, &ta);
      double keep = p[i];
      p[i] = keep + h;
      double fp = read_only(&a);
      p[i] = keep - h;
      double fm = read_only(&a);
      p[i] = keep;
      CHECK_CLOSE(dp[i], want, 1e-12);
      CHECK_CLOSE((fp - fm) / (2 * h), want, 1e-6);
      CHECK_CLOSE(fwd, want, 1e-12);
    }
    printf("(b) d/dp0 %.12f\n", dp[0]);
  }

  /* (c) */
  {
    double x[N], g[N] = {0}, work[N], dwork[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    struct cells c = {0, N}, dc = {0, N};
    __enzyme_autodiff((void *)set_inside, enzyme_dup, &c, &dc, enzyme_dup,
                      work, dwork, enzyme_dup, x, g);
    for (int i = 0; i < N; ++i) {
      double want = exp(x[i]) * (x[i] + 1);
      double xp[N], xm[N], t[N] = {0}, dt[N] = {0};
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      double fd =
          (set_inside(&c, work, xp) - set_inside(&c, work, xm)) / (2 * h);
      t[i] = 1;
      struct cells tc = {0, N};
      double fwd = __enzyme_fwddiff((void *)set_inside, enzyme_dup, &c, &tc,
                                    enzyme_dup, work, dt, enzyme_dup, x, t);
      CHECK_CLOSE(g[i], want, 1e-12);
      CHECK_CLOSE(fd, want, 1e-6);
      CHECK_CLOSE(fwd, want, 1e-12);
    }
    printf("(c) d/dx0 %.12f\n", g[0]);
  }
  return check_finish();
}
