/* A shadow struct the caller zeroes (`struct S ds = {0}`) leaves a null
 * shadow pointer beside a primal pointer to data. What the function writes
 * through it with a derivative and reads back must keep that derivative at
 * every optimization level (at -O0 the write went to a sink and the read
 * gave zero; from -O1 the optimizer forwarded the store): within the call,
 * such a null shadow stands for a scratch shadow of the primal address.
 * Reverse and forward mode, loops over arrays, two pointers to the same
 * data, data read before it is written, repeated calls, forward over
 * reverse; checked against analytic values and central differences. */
#include "check.h"

#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

struct S {
  double *p;
  double k;
};

/* The case of docs/status.md: d/dx = 2 x k, d/dk = x^2. */
static double write_read(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->k;
}

/* p[i] = x[i]^2; r = k * sum p[i] sin(x[i]) */
static double array_loop(struct S *s, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    s->p[i] = x[i] * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += s->p[i] * s->k * sin(x[i]);
  return r;
}

/* t->p = s->p; t->p[1] = 3x; r = t->p[1] * s->p[1] = 9 x^2: two pointers
 * to the same data, one stored by the function (its shadow stays null). */
static double two_pointers(struct S *s, struct S *t, double x) {
  t->p = s->p;
  t->p[1] = 3 * x;
  return t->p[1] * s->p[1];
}

/* a = p[2] * x (the data as given: no derivative); p[2] = x;
 * r = a + p[2] * k: d/dx = p[2] + k. */
static double read_then_write(struct S *s, double x) {
  double a = s->p[2] * x;
  s->p[2] = x;
  return a + s->p[2] * s->k;
}

static double wr_value(double x, double k) {
  double buf[N] = {0};
  struct S s = {buf, k};
  return write_read(&s, x);
}

static double loop_value(const double *x, double k) {
  double buf[N];
  struct S s = {buf, k};
  return array_loop(&s, x, N);
}

static void check_write_read(void) {
  const double x = 0.7, k = 1.5, h = 1e-6;
  for (int rep = 0; rep < 2; ++rep) { /* (nothing left from the last call) */
    double buf[N] = {0};
    struct S s = {buf, k}, ds = {0};
    double dx = __enzyme_autodiff((void *)write_read, enzyme_dup, &s, &ds,
                                  enzyme_out, x);
    CHECK_CLOSE(dx, 2 * x * k, 1e-12);
    CHECK_CLOSE(ds.k, x * x, 1e-12);
    CHECK_TRUE(ds.p == NULL);
    CHECK_CLOSE(dx, (wr_value(x + h, k) - wr_value(x - h, k)) / (2 * h), 1e-6);
    struct S ts = {0};
    double t = __enzyme_fwddiff((void *)write_read, enzyme_dup, &s, &ts,
                                enzyme_dup, x, 1.0);
    CHECK_CLOSE(t, dx, 1e-12);
    CHECK_TRUE(ts.p == NULL);
    struct S tk = {NULL, 1.0};
    t = __enzyme_fwddiff((void *)write_read, enzyme_dup, &s, &tk, enzyme_dup,
                         x, 0.0);
    CHECK_CLOSE(t, x * x, 1e-12);
  }
}

static void check_array_loop(void) {
  const double x[N] = {0.3, -0.7, 1.1, 0.4}, k = -0.75, h = 1e-6;
  double buf[N];
  struct S s = {buf, k}, ds = {0};
  double dx[N] = {0};
  __enzyme_autodiff((void *)array_loop, enzyme_dup, &s, &ds, enzyme_dup, x,
                    dx, enzyme_const, N);
  double want_k = 0;
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i],
                k * (2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i])), 1e-12);
    want_k += x[i] * x[i] * sin(x[i]);
    double xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(dx[i], (loop_value(xp, k) - loop_value(xm, k)) / (2 * h),
                1e-6);
    struct S ts = {0};
    double tx[N] = {0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)array_loop, enzyme_dup, &s, &ts,
                                enzyme_dup, x, tx, enzyme_const, N);
    CHECK_CLOSE(t, dx[i], 1e-12);
  }
  CHECK_CLOSE(ds.k, want_k, 1e-12);
}

static void check_two_pointers(void) {
  const double x = -1.3;
  double buf[N] = {0};
  struct S s = {buf, 0}, t = {NULL, 0}, ds = {0}, dt = {0};
  double dx = __enzyme_autodiff((void *)two_pointers, enzyme_dup, &s, &ds,
                                enzyme_dup, &t, &dt, enzyme_out, x);
  CHECK_CLOSE(dx, 18 * x, 1e-12);
  /* (The shadow stored for t->p is the null one, not the scratch.) */
  CHECK_TRUE(dt.p == NULL && ds.p == NULL);
  struct S ts = {0}, tt = {0};
  double d = __enzyme_fwddiff((void *)two_pointers, enzyme_dup, &s, &ts,
                              enzyme_dup, &t, &tt, enzyme_dup, x, 1.0);
  CHECK_CLOSE(d, 18 * x, 1e-12);
  CHECK_TRUE(tt.p == NULL);
}

static void check_read_then_write(void) {
  const double x = 0.9, k = 2.5, p2 = -0.4;
  double buf[N] = {0, 0, p2, 0};
  struct S s = {buf, k}, ds = {0};
  for (int rep = 0; rep < 2; ++rep) {
    buf[2] = p2;
    double dx = __enzyme_autodiff((void *)read_then_write, enzyme_dup, &s, &ds,
                                  enzyme_out, x);
    CHECK_CLOSE(dx, p2 + k, 1e-12);
    buf[2] = p2;
    struct S ts = {0};
    double t = __enzyme_fwddiff((void *)read_then_write, enzyme_dup, &s, &ts,
                                enzyme_dup, x, 1.0);
    CHECK_CLOSE(t, p2 + k, 1e-12);
  }
}

/* Forward over reverse: d/dx of the gradient 2 x k is 2 k. */
static double gradient_of_write_read(double x, double k) {
  double buf[N] = {0};
  struct S s = {buf, k}, ds = {0};
  return __enzyme_autodiff((void *)write_read, enzyme_dup, &s, &ds,
                           enzyme_out, x);
}

static void check_forward_over_reverse(void) {
  const double x = 0.35, k = -1.25, h = 1e-5;
  double d2 = __enzyme_fwddiff((void *)gradient_of_write_read, enzyme_dup, x,
                               1.0, enzyme_const, k);
  CHECK_CLOSE(d2, 2 * k, 1e-12);
  CHECK_CLOSE(d2,
              (gradient_of_write_read(x + h, k) -
               gradient_of_write_read(x - h, k)) /
                  (2 * h),
              1e-6);
}

/* Reverse over reverse: the same second derivative. */
static void check_reverse_over_reverse(void) {
  const double x = -0.8, k = 0.6;
  double d2 = __enzyme_autodiff((void *)gradient_of_write_read, enzyme_out, x,
                                enzyme_const, k);
  CHECK_CLOSE(d2, 2 * k, 1e-12);
}

int main(void) {
  check_write_read();
  check_array_loop();
  check_two_pointers();
  check_read_then_write();
  check_forward_over_reverse();
  check_reverse_over_reverse();
  return check_finish();
}
