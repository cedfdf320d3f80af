/* Split mode (__enzyme_augmentfwd / __enzyme_reverse) with a shadow
 * struct the caller zeroes (`struct S ds = {0}`): a null shadow pointer
 * beside a primal pointer to data. Reading a value through it crashed (no
 * guards in split mode), and a value with a derivative written through it
 * and read back lost its derivative: the scratch shadow of its primal
 * address must live from the augmented sweep to the reverse sweep given
 * its tape. Also: the tape in a caller's buffer (enzyme_allocated), two
 * augmented sweeps reversed in the reverse order, a combined gradient of
 * the same data run between the sweeps, the shadow struct received from
 * the caller, and a zeroed shadow only read through. Checked against
 * analytic values, __enzyme_autodiff and central differences. */
#include "check.h"

#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_allocated,
    enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_augmentfwd_v(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_autodiff(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

enum { N = 4 };

struct S {
  double *p;
  double k;
};

/* p[0] = x^2; r = p[0] * k: d/dx = 2 x k, d/dk = x^2. */
static double write_read(struct S *s, const double *x) {
  s->p[0] = x[0] * x[0];
  return s->p[0] * s->k;
}

/* p[i] = x[i]^2; r = k * sum p[i] sin(x[i]) */
static double array_loop(struct S *s, const double *x) {
  for (int i = 0; i < N; ++i)
    s->p[i] = x[i] * x[i];
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += s->p[i] * s->k * sin(x[i]);
  return r;
}

/* Only read through: r = k * p[1] * x (p[1] has no derivative). */
static double read_only(struct S *s, const double *x) {
  return s->k * s->p[1] * x[0];
}

static double loop_value(const double *x, double k) {
  double buf[N];
  struct S s = {buf, k};
  return array_loop(&s, x);
}

static void check_write_read(void) {
  const double k = 1.5;
  for (int rep = 0; rep < 2; ++rep) {
    double buf[N] = {0}, x = 0.7 + rep, dx = 0;
    struct S s = {buf, k}, ds = {0};
    void *tape = __enzyme_augmentfwd((void *)write_read, enzyme_dup, &s, &ds,
                                     enzyme_dup, &x, &dx);
    __enzyme_reverse((void *)write_read, enzyme_dup, &s, &ds, enzyme_dup, &x,
                     &dx, 1.0, tape);
    CHECK_CLOSE(dx, 2 * x * k, 1e-12);
    CHECK_CLOSE(ds.k, x * x, 1e-12);
    CHECK_TRUE(ds.p == NULL);
  }
}

static void check_array_loop(void) {
  const double x[N] = {0.3, -0.7, 1.1, 0.4}, k = -0.75, h = 1e-6;
  double buf[N];
  struct S s = {buf, k}, ds = {0};
  double dx[N] = {0};
  void *tape = __enzyme_augmentfwd((void *)array_loop, enzyme_dup, &s, &ds,
                                   enzyme_dup, x, dx);
  __enzyme_reverse((void *)array_loop, enzyme_dup, &s, &ds, enzyme_dup, x, dx,
                   2.0, tape);
  double want_k = 0;
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i],
                2 * k * (2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i])),
                1e-12);
    want_k += 2 * x[i] * x[i] * sin(x[i]);
    double xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(dx[i], 2 * (loop_value(xp, k) - loop_value(xm, k)) / (2 * h),
                1e-6);
  }
  CHECK_CLOSE(ds.k, want_k, 1e-12);
  /* The same as one call. */
  struct S dc = {0};
  double dcx[N] = {0};
  __enzyme_autodiff((void *)array_loop, enzyme_dup, &s, &dc, enzyme_dup, x,
                    dcx);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(2 * dcx[i], dx[i], 1e-12);
}

/* The tape in the caller's buffer; two augmented sweeps reversed in the
 * reverse order; a combined gradient over the same data between them. */
static void check_nested_sweeps(void) {
  const double k1 = 0.5, k2 = -2.0;
  double buf[N] = {0}, x1 = 1.25, x2 = -0.6, dx1 = 0, dx2 = 0;
  struct S s1 = {buf, k1}, s2 = {buf, k2}, ds1 = {0}, ds2 = {0};
  unsigned long sz = __enzyme_augmentsize((void *)write_read, enzyme_dup,
                                          enzyme_dup);
  void *tape1[8];
  CHECK_TRUE(sz <= sizeof tape1);
  __enzyme_augmentfwd_v((void *)write_read, enzyme_allocated, sz, enzyme_tape,
                        tape1, enzyme_dup, &s1, &ds1, enzyme_dup, &x1, &dx1);
  void *tape2 = __enzyme_augmentfwd((void *)write_read, enzyme_dup, &s2, &ds2,
                                    enzyme_dup, &x2, &dx2);
  /* (Its own session: what it leaves behind is not seen by the sweeps.) */
  struct S s3 = {buf, 3.0}, ds3 = {0};
  double x3 = 0.9;
  double dx3 = __enzyme_autodiff((void *)write_read, enzyme_dup, &s3, &ds3,
                                 enzyme_dup, &x3, &(double){0});
  (void)dx3;
  __enzyme_reverse((void *)write_read, enzyme_dup, &s2, &ds2, enzyme_dup, &x2,
                   &dx2, 1.0, tape2);
  __enzyme_reverse((void *)write_read, enzyme_allocated, sz, enzyme_tape,
                   tape1, enzyme_dup, &s1, &ds1, enzyme_dup, &x1, &dx1, 1.0);
  CHECK_CLOSE(dx2, 2 * x2 * k2, 1e-12);
  CHECK_CLOSE(dx1, 2 * x1 * k1, 1e-12);
  CHECK_CLOSE(ds1.k, x1 * x1, 1e-12);
  CHECK_CLOSE(ds2.k, x2 * x2, 1e-12);
}

/* The shadow struct received from the caller. */
static double __attribute__((noinline))
split_gradient(struct S *s, struct S *ds, double x) {
  double dx = 0;
  void *tape = __enzyme_augmentfwd((void *)write_read, enzyme_dup, s, ds,
                                   enzyme_dup, &x, &dx);
  __enzyme_reverse((void *)write_read, enzyme_dup, s, ds, enzyme_dup, &x, &dx,
                   1.0, tape);
  return dx;
}

static void check_received(void) {
  double buf[N] = {0};
  struct S s = {buf, 2.5}, ds = {0};
  CHECK_CLOSE(split_gradient(&s, &ds, -0.4), 2 * -0.4 * 2.5, 1e-12);
  CHECK_CLOSE(ds.k, 0.16, 1e-12);
}

static void check_read_only(void) {
  double buf[N] = {0, 1.75, 0, 0}, x = 0.3, dx = 0;
  struct S s = {buf, -1.5}, ds = {0};
  void *tape = __enzyme_augmentfwd((void *)read_only, enzyme_dup, &s, &ds,
                                   enzyme_dup, &x, &dx);
  __enzyme_reverse((void *)read_only, enzyme_dup, &s, &ds, enzyme_dup, &x, &dx,
                   1.0, tape);
  CHECK_CLOSE(dx, -1.5 * 1.75, 1e-12);
  CHECK_CLOSE(ds.k, 1.75 * x, 1e-12);
}

int main(void) {
  check_write_read();
  check_array_loop();
  check_nested_sweeps();
  check_received();
  check_read_only();
  return check_finish();
}
