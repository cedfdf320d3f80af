/* Enzyme's floating-point error estimation, __enzyme_error_estimate: each
 * argument is followed by its error (for a pointer, memory of errors), and
 * the result is the estimate of the function's result. Per operation
 * f(x_i): e(f) = max(ulp(f), sum_i |df/dx_i * e_i * x_i / f|), checked
 * against the same recurrences written out here, and against the error
 * measured with a long double reference where the estimate must bound it
 * (one rounding of exact inputs, a cancellation, a correctly rounded libm
 * result). */
#include "check.h"

#include <stdint.h>
#include <string.h>

double __enzyme_error_estimate(void *, ...);
extern int enzyme_const, enzyme_dup;

/* One unit in the last place, as the estimate measures it: the distance to
 * the value whose lowest bit of representation differs. */
static double ulp(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b ^= 1;
  double n;
  memcpy(&n, &b, sizeof n);
  return fabs(x - n);
}

static double mx(double a, double b) { return a > b ? a : b; }

static double add(double x, double y) { return x + y; }
static double sub(double x, double y) { return x - y; }
static double mul(double x, double y) { return x * y; }
static double quo(double x, double y) { return x / y; }
static double neg_sq(double x) { return -(x * x); }

__attribute__((noinline)) static double sum(const double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  return s;
}

static double product(const double *a, int n) {
  double p = a[0];
  for (int i = 1; i < n; ++i)
    p *= a[i];
  return p;
}


static double libm_exp(double x) { return exp(x); }
static double libm_sqrt(double x) { return sqrt(x); }
static double libm_log(double x) { return log(x); }
static double libm_cos(double x) { return cos(x); }
static double libm_fmax(double x, double y) { return fmax(x, y); }

/* Through memory and a call: the error of *out is written to the shadow. */
__attribute__((noinline)) static double scaled(double a, double k) {
  return a * k;
}
static void through_memory(const double *a, const double *b, double *out) {
  *out = scaled(*a + *b, 0.5);
}

static void single_operations(void) {
  double x = 3.0, y = 7.0, u = 1.0 / 3.0, v = 0.1;
  /* Exact inputs: one rounding, estimate ulp(result), bounding the error
   * of the rounded result. */
  double e = __enzyme_error_estimate((void *)add, u, 0.0, v, 0.0);
  CHECK_CLOSE(e, ulp(u + v), 0);
  CHECK_TRUE(fabsl((long double)(u + v) - ((long double)u + v)) <= e);
  e = __enzyme_error_estimate((void *)sub, u, 0.0, v, 0.0);
  CHECK_CLOSE(e, ulp(u - v), 0);
  CHECK_TRUE(fabsl((long double)(u - v) - ((long double)u - v)) <= e);
  e = __enzyme_error_estimate((void *)mul, u, 0.0, v, 0.0);
  CHECK_CLOSE(e, ulp(u * v), 0);
  CHECK_TRUE(fabsl((long double)(u * v) - (long double)u * v) <= e);
  e = __enzyme_error_estimate((void *)quo, x, 0.0, y, 0.0);
  CHECK_CLOSE(e, ulp(x / y), 0);
  CHECK_TRUE(fabsl((long double)(x / y) - (long double)x / y) <= e);

  /* Inputs with errors: each weighted by x_i / f * df/dx_i. */
  double ex = 1e-9, ey = -3e-9;
  e = __enzyme_error_estimate((void *)add, x, ex, y, ey);
  CHECK_CLOSE(e, fabs(ex * x / (x + y)) + fabs(ey * y / (x + y)), 1e-15);
  e = __enzyme_error_estimate((void *)sub, x, ex, y, ey);
  CHECK_CLOSE(e, fabs(ex * x / (x - y)) + fabs(-ey * y / (x - y)), 1e-15);
  e = __enzyme_error_estimate((void *)mul, x, ex, y, ey);
  CHECK_CLOSE(e, fabs(ex) + fabs(ey), 1e-15);
  e = __enzyme_error_estimate((void *)quo, x, ex, y, ey);
  CHECK_CLOSE(e, fabs(ex) + fabs(ey), 1e-15);
  /* -(x x): the product's estimate, the negation's ulp is the same. */
  e = __enzyme_error_estimate((void *)neg_sq, x, ex);
  CHECK_CLOSE(e, 2 * fabs(ex), 1e-15);
  /* A constant argument carries no error. */
  e = __enzyme_error_estimate((void *)mul, enzyme_const, x, y, ey);
  CHECK_CLOSE(e, fabs(ey), 1e-15);
}

static void sums_and_products(void) {
  enum { N = 40 };
  double a[N], ea[N];
  for (int i = 0; i < N; ++i) {
    a[i] = 1.0 / (i + 1.0);
    ea[i] = (i % 3 + 1) * 1e-12;
  }
  /* Exact inputs: ulp of the last partial sum. */
  double zero[N] = {0};
  double e = __enzyme_error_estimate((void *)sum, enzyme_dup, a, zero,
                                     enzyme_const, N);
  double s = sum(a, N);
  CHECK_CLOSE(e, ulp(s), 0);
  /* With errors: the recurrence of the partial sums. */
  double want = 0, part = a[0];
  want = mx(ulp(part), fabs(ea[0]));
  for (int i = 1; i < N; ++i) {
    double next = part + a[i];
    want = mx(ulp(next),
              fabs(want * part / next) + fabs(ea[i] * a[i] / next));
    part = next;
  }
  e = __enzyme_error_estimate((void *)sum, enzyme_dup, a, ea, enzyme_const,
                              N);
  CHECK_CLOSE(e, want, 1e-12);
  CHECK_TRUE(e > 1e-13 && e < 3e-12);

  /* Products: relative errors add, each step at least one ulp. */
  double b[8], eb[8];
  for (int i = 0; i < 8; ++i) {
    b[i] = 1.0 + i * 0.01;
    eb[i] = 1e-15 * (i + 1);
  }
  want = fabs(eb[0]);
  part = b[0];
  for (int i = 1; i < 8; ++i) {
    part *= b[i];
    want = mx(ulp(part), want + fabs(eb[i]));
  }
  e = __enzyme_error_estimate((void *)product, enzyme_dup, b, eb,
                              enzyme_const, 8);
  CHECK_CLOSE(e, want, 1e-12);
  CHECK_CLOSE(e, 36e-15, 1e-12);
}

/* (-ffast-math folds (1 + x) - 1 into x, and rewrites the quotient: the
 * estimates are those of other operations.) */
#ifndef __FAST_MATH__
/* (1 + x) - 1: exact in real numbers, the rounding of 1 + x is magnified
 * by the cancellation. */
static double cancel(double x) { return (1.0 + x) - 1.0; }

/* (1 - cos x) / x^2 near 0: a libm call, a cancellation, a product and a
 * quotient. */
static double versine_ratio(double x) {
  double c = cos(x);
  double d = 1.0 - c;
  double q = x * x;
  return d / q;
}

static void cancellations(void) {
  double x = 1e-10;
  double t = 1.0 + x, r = t - 1.0;
  /* ulp(1 + x), relative to the result of the subtraction. */
  double want = mx(ulp(r), ulp(t) * t / r);
  double e = __enzyme_error_estimate((void *)cancel, x, 0.0);
  CHECK_CLOSE(e, want, 1e-14);
  CHECK_TRUE(e > 1e-6 && e < 1e-5);
  /* The measured relative error is within the estimate. */
  long double exact = ((long double)1 + x) - 1;
  CHECK_TRUE(fabsl((r - exact) / exact) <= e);

  double z = 1e-7;
  double c = cos(z), d = 1.0 - c, q = z * z, f = d / q;
  double ec = ulp(c);
  double ed = mx(ulp(d), fabs(-1.0 * ec * c / d));
  double eq = ulp(q);
  want = mx(ulp(f), fabs(1.0 / q * ed * d / f) + fabs(-f / q * eq * q / f));
  e = __enzyme_error_estimate((void *)versine_ratio, z, 0.0);
  CHECK_CLOSE(e, want, 1e-12);
  CHECK_TRUE(e > 0.01 && e < 0.05);
  long double fx = (1 - cosl(z)) / ((long double)z * z);
  CHECK_TRUE(fabsl((f - fx) / fx) <= e);
}
#endif

static void libm_calls(void) {
  double x = 0.75, ex = 2e-13;
  double e = __enzyme_error_estimate((void *)libm_exp, x, ex);
  CHECK_CLOSE(e, mx(ulp(exp(x)), fabs(x * ex)), 1e-15);
  e = __enzyme_error_estimate((void *)libm_sqrt, x, ex);
  CHECK_CLOSE(e, mx(ulp(sqrt(x)), fabs(ex) / 2), 1e-15);
  e = __enzyme_error_estimate((void *)libm_log, x, ex);
  CHECK_CLOSE(e, mx(ulp(log(x)), fabs(ex / log(x))), 1e-15);
  /* An exact input: one ulp of the result, which glibc's cos is within. */
  e = __enzyme_error_estimate((void *)libm_cos, x, 0.0);
  CHECK_CLOSE(e, ulp(cos(x)), 0);
  CHECK_TRUE(fabsl((long double)cos(x) - cosl(x)) <= e);
  /* fmax: the chosen argument's error alone. */
  e = __enzyme_error_estimate((void *)libm_fmax, 2.0, 1e-12, 3.0, 4e-12);
  CHECK_CLOSE(e, 4e-12, 1e-15);
}

static void memory_and_calls(void) {
  double a = 99.0, b = 127.0, ea = 0.0, eb = 0.0, out = 0, eout = 0;
  __enzyme_error_estimate((void *)through_memory, &a, &ea, &b, &eb, &out,
                          &eout);
  double s = a + b;
  CHECK_CLOSE(out, s * 0.5, 0);
  /* The sum's ulp, relative to the product (x k / f = 1), and the
   * product's own ulp. */
  CHECK_CLOSE(eout, mx(ulp(s * 0.5), ulp(s)), 0);
  ea = 1e-10;
  __enzyme_error_estimate((void *)through_memory, &a, &ea, &b, &eb, &out,
                          &eout);
  CHECK_CLOSE(eout, fabs(ea * a / s), 1e-15);
}

int main(void) {
  single_operations();
  sums_and_products();
#ifndef __FAST_MATH__
  cancellations();
#endif
  libm_calls();
  memory_and_calls();
  return check_finish();
}
