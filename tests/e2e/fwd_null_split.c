/* Split forward mode (__enzyme_augmentfwd, then __enzyme_fwdsplit) of
 * functions given a shadow struct the caller zeroes (`struct S ds = {0}`):
 * the shadow of the pointer s->p to data is null. Reads through it give no
 * tangent; what the tangent sweep writes through it and reads back keeps
 * its tangent through a scratch shadow of the primal address (the tangent
 * sweep wrote through the null pointer: a segmentation fault). A write
 * then a read, a loop over an array, a callee, the primal's memory changed
 * between the two sweeps, two directions at once (enzyme_width); checked
 * against analytic values, central differences and __enzyme_fwddiff. */
#include "fwd_check.h"

#include <string.h>

extern int enzyme_width;
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
typedef struct {
  double d[2];
} two;
two __enzyme_fwdsplit_2(void *, ...);

enum { N = 4 };

struct S {
  double *p;
  double k;
};

/* p[0] = x^2; r = p[0] k sin x */
static double write_read(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->k * sin(x);
}
static double write_read_d(double x, double k) {
  return k * (2 * x * sin(x) + x * x * cos(x));
}

/* p[i] = x c_i; r = k sum p[i]^2 (p[i-1] + 1) */
static const double C[N] = {0.5, -1.25, 2.0, 0.75};
__attribute__((noinline)) static double term(struct S *s, int i) {
  return s->p[i] * s->p[i] * (i ? s->p[i - 1] + 1 : 1);
}
static double loop(struct S *s, double x) {
  for (int i = 0; i < N; ++i)
    s->p[i] = x * C[i];
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += term(s, i);
  return r * s->k;
}

static double g_k;
static double write_read_line(double x) {
  double buf[N] = {0};
  struct S s = {buf, g_k};
  return write_read(&s, x);
}
static double loop_line(double x) {
  double buf[N] = {0};
  struct S s = {buf, g_k};
  return loop(&s, x);
}

typedef double (*fn)(struct S *, double);

static void check(fn f, double (*line)(double), double x, double k) {
  g_k = k;
  for (int rep = 0; rep < 2; ++rep) { /* (nothing left from the last one) */
    double buf[N] = {0};
    struct S s = {buf, k}, ds = {0};
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, &s, &ds, x);
    /* (The sweep uses the recorded point, not the memory as it is now.) */
    memset(buf, 0, sizeof buf);
    double t =
        __enzyme_fwdsplit((void *)f, enzyme_dup, &s, &ds, x, 1.0, tape);
    CHECK_TRUE(ds.p == NULL);
    CHECK_CLOSE(t, fd_central(line, x), FWD_TOL_FD);
    struct S fs = {buf, k}, fds = {0};
    CHECK_CLOSE(t,
                __enzyme_fwddiff((void *)f, enzyme_dup, &fs, &fds,
                                 enzyme_dup, x, 1.0),
                FWD_TOL_EXACT);
    /* along k and along x at once */
    struct S dss[2] = {{NULL, 0.0}, {NULL, 1.0}};
    tape = __enzyme_augmentfwd((void *)f, enzyme_width, 2, enzyme_dup, &s,
                               &dss[0], &dss[1], x);
    two w = __enzyme_fwdsplit_2((void *)f, enzyme_width, 2, enzyme_dup, &s,
                                &dss[0], &dss[1], x, 1.0, 0.0, tape);
    CHECK_CLOSE(w.d[0], t, FWD_TOL_EXACT);
    CHECK_CLOSE(w.d[1], line(x) / k, FWD_TOL_EXACT);
  }
}

int main(void) {
  double x = 0.7, k = 1.5;
  double buf[N] = {0};
  struct S s = {buf, k}, ds = {0};
  void *tape = __enzyme_augmentfwd((void *)write_read, enzyme_dup, &s, &ds, x);
  CHECK_CLOSE(__enzyme_fwdsplit((void *)write_read, enzyme_dup, &s, &ds, x,
                                1.0, tape),
              write_read_d(x, k), FWD_TOL_EXACT);
  check(write_read, write_read_line, x, k);
  check(loop, loop_line, -0.4, 0.8);
  return check_finish();
}
