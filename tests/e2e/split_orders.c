/* What __enzyme_augmentfwd returns, in each shape Enzyme returns it: the
 * fields {tape, result, shadow}, each where it exists — the tape alone for
 * a void function (and with enzyme_noret), {tape, result} for a
 * floating-point result (or with enzyme_const_return; also declared
 * {result, tape}), {tape, result,
 * shadow} for a pointer result, and without the tape when enzyme_allocated
 * / enzyme_tape give a buffer for it (markers before the arguments or
 * after them, __enzyme_augmentsize for the buffer's size). Registered
 * augmented functions that return a pointer result with its shadow
 * ({void *tape, result, shadow}, through memory, and {result, shadow}),
 * in split and in combined mode. Each gradient is checked against its
 * closed form, central differences and __enzyme_autodiff of the same
 * function. */
#include "split_check.h"

#include <stdlib.h>

extern int enzyme_allocated, enzyme_tape, enzyme_const_return, enzyme_noret;
double __enzyme_reverse(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);
void __enzyme_augmentfwd_v(void *, ...);
double __enzyme_augmentfwd_r(void *, ...);
typedef struct {
  double *r, *s;
} result_shadow;
result_shadow __enzyme_augmentfwd_rs(void *, ...);
typedef struct {
  void *tape;
  double *r, *s;
} tape_result_shadow;
tape_result_shadow __enzyme_augmentfwd_trs(void *, ...);
typedef struct {
  void *tape;
  double *r;
} tape_pointer;
/* {result, tape}: the order some of Enzyme's programs declare */
typedef struct {
  double r;
  void *tape;
} result_tape;
result_tape __enzyme_augmentfwd_rt(void *, ...);
tape_pointer __enzyme_augmentfwd_tp(void *, ...);

/* y = [x0 + x1^2, -x1] in place */
static void step(double *x) {
  x[0] += x[1] * x[1];
  x[1] = -x[1];
}
static double cubic(const double *p) { return p[0] * p[0] * p[1]; }
static double *scale(double *x) {
  x[1] = x[1] * x[0];
  return x + 1;
}

/* A registered rule for a function that returns a pointer: the shadow it
 * returns is a scratch cell, whose adjoint the reverse function adds, times
 * three, to the true shadow (so that the checks see the rule used). */
__attribute__((noinline)) static double *pick(double *x, int i) {
  return x + i;
}
static tape_result_shadow pick_aug(double *x, double *dx, int i) {
  (void)dx;
  double *cell = (double *)calloc(1, sizeof(double));
  tape_result_shadow t = {cell, x + i, cell};
  return t;
}
static void pick_rev(double *x, double *dx, int i, void *tape) {
  (void)x;
  dx[i] += 3 * *(double *)tape;
  free(tape);
}
void *__enzyme_register_gradient_pick[] = {(void *)pick, (void *)pick_aug,
                                           (void *)pick_rev};
/* {result, shadow}, no tape: the true derivative */
__attribute__((noinline)) static double *at(double *x, int i) { return x + i; }
static result_shadow at_aug(double *x, double *dx, int i) {
  result_shadow t = {x + i, dx + i};
  return t;
}
static void at_rev(double *x, double *dx, int i) {
  (void)x, (void)dx, (void)i;
}
void *__enzyme_register_gradient_at[] = {(void *)at, (void *)at_aug,
                                         (void *)at_rev};
/* 3 x0 x1 as the rule has it (x0 x1 truly) + sin x2 */
static double ruled(double *x) { return *pick(x, 1) * x[0] + sin(*at(x, 2)); }
static double ruled_true(const double *x) {
  return x[1] * x[0] + sin(x[2]);
}
static double cubic_fd(const double *p) { return cubic(p); }

int main(void) {
  const double x0 = 1.2, x1 = 3.4, b0 = 5.6, b1 = 7.8;
  { /* void function: the tape alone */
    double x[2] = {x0, x1}, xb[2] = {b0, b1};
    void *t = __enzyme_augmentfwd((void *)step, enzyme_dup, x, xb);
    CHECK_CLOSE(x[0], x0 + x1 * x1, REV_TOL_EXACT);
    __enzyme_reverse_v((void *)step, enzyme_dup, x, xb, t);
    CHECK_CLOSE(xb[0], b0, REV_TOL_EXACT);
    CHECK_CLOSE(xb[1], b0 * 2 * x1 - b1, REV_TOL_EXACT);
  }
  { /* void function, tape buffer: markers after the arguments */
    double x[2] = {x0, x1}, xb[2] = {b0, b1};
    char buf[100];
    __enzyme_augmentfwd_v((void *)step, enzyme_dup, x, xb, enzyme_allocated,
                          100, enzyme_tape, buf);
    __enzyme_reverse_v((void *)step, enzyme_dup, x, xb, enzyme_allocated, 100,
                       enzyme_tape, buf);
    CHECK_CLOSE(xb[1], b0 * 2 * x1 - b1, REV_TOL_EXACT);
  }
  double p[2] = {1.5, 2}, exact[2] = {2 * 1.5 * 2, 1.5 * 1.5};
  double ref[2] = {0};
  __enzyme_autodiff((void *)cubic, p, ref);
  rev_check_grad(__FILE__, __LINE__, "autodiff", cubic_fd, p, 2, ref, exact,
                 REV_TOL_FD);
  { /* floating-point result: {tape, result}, seed 2; the same declared
       {result, tape} (reverse sweeps in the reverse order) */
    double dp[2] = {0}, dq[2] = {0};
    tape_result a = __enzyme_augmentfwd_tr((void *)cubic, p, dp);
    result_tape b = __enzyme_augmentfwd_rt((void *)cubic, p, dq);
    CHECK_CLOSE(a.r, 4.5, REV_TOL_EXACT);
    CHECK_CLOSE(b.r, 4.5, REV_TOL_EXACT);
    __enzyme_reverse((void *)cubic, p, dq, 2.0, b.tape);
    __enzyme_reverse((void *)cubic, p, dp, 2.0, a.tape);
    for (int k = 0; k < 2; ++k) {
      CHECK_CLOSE(dp[k], 2 * ref[k], REV_TOL_EXACT);
      CHECK_CLOSE(dq[k], 2 * ref[k], REV_TOL_EXACT);
    }
  }
  { /* enzyme_const_return: {tape, result}, no seed */
    double dp[2] = {0};
    tape_result a =
        __enzyme_augmentfwd_tr((void *)cubic, enzyme_const_return, p, dp);
    CHECK_CLOSE(a.r, 4.5, REV_TOL_EXACT);
    __enzyme_reverse((void *)cubic, enzyme_const_return, p, dp, a.tape);
    CHECK_CLOSE(dp[0], 0, REV_TOL_EXACT);
  }
  { /* enzyme_noret: the tape alone; the result is still seeded */
    double dp[2] = {0};
    void *t = __enzyme_augmentfwd((void *)cubic, enzyme_noret, p, dp);
    __enzyme_reverse((void *)cubic, enzyme_noret, p, dp, 1.0, t);
    rev_check_grad(__FILE__, __LINE__, "noret", cubic_fd, p, 2, dp, ref,
                   REV_TOL_FD);
  }
  { /* tape in a buffer of __enzyme_augmentsize bytes: the result alone */
    double dp[2] = {0};
    unsigned long sz = __enzyme_augmentsize((void *)cubic, enzyme_dup);
    void *buf[4];
    CHECK_TRUE(sz > 0 && sz <= sizeof buf);
    double r = __enzyme_augmentfwd_r((void *)cubic, enzyme_allocated, sz,
                                     enzyme_tape, buf, p, dp);
    CHECK_CLOSE(r, 4.5, REV_TOL_EXACT);
    __enzyme_reverse((void *)cubic, enzyme_allocated, sz, enzyme_tape, buf, p,
                     dp, 1.0);
    rev_check_grad(__FILE__, __LINE__, "buffer", cubic_fd, p, 2, dp, ref,
                   REV_TOL_FD);
  }
  { /* pointer result: {tape, result, shadow}; the caller seeds the shadow */
    double x[2] = {1.5, 2}, dx[2] = {0};
    tape_result_shadow a = __enzyme_augmentfwd_trs((void *)scale, x, dx);
    CHECK_CLOSE(*a.r, 3.0, REV_TOL_EXACT);
    CHECK_TRUE(a.r == x + 1 && a.s == dx + 1);
    *a.s += 1.0;
    __enzyme_reverse_v((void *)scale, x, dx, a.tape);
    CHECK_CLOSE(dx[0], 2.0, REV_TOL_EXACT);
    CHECK_CLOSE(dx[1], 1.5, REV_TOL_EXACT);
  }
  { /* pointer result, enzyme_const_return: {tape, result} */
    double x[2] = {1.5, 2}, dx[2] = {0, 1};
    tape_pointer a =
        __enzyme_augmentfwd_tp((void *)scale, enzyme_const_return, x, dx);
    CHECK_TRUE(a.r == x + 1);
    __enzyme_reverse_v((void *)scale, enzyme_const_return, x, dx, a.tape);
    CHECK_CLOSE(dx[0], 2.0, REV_TOL_EXACT); /* the seed in dx[1] */
    CHECK_CLOSE(dx[1], 1.5, REV_TOL_EXACT);
  }
  { /* pointer result with the tape in a buffer: {result, shadow} */
    double x[2] = {1.5, 2}, dx[2] = {0};
    void *buf[1];
    result_shadow a = __enzyme_augmentfwd_rs(
        (void *)scale, enzyme_allocated, sizeof buf, enzyme_tape, buf, x, dx);
    CHECK_TRUE(a.r == x + 1 && a.s == dx + 1);
    *a.s += 1.0;
    __enzyme_reverse_v((void *)scale, x, dx, enzyme_allocated, sizeof buf,
                       enzyme_tape, buf);
    CHECK_CLOSE(dx[0], 2.0, REV_TOL_EXACT);
    CHECK_CLOSE(dx[1], 1.5, REV_TOL_EXACT);
  }
  { /* registered rules with pointer results, combined and split */
    double x[3] = {0.5, 1.5, 0.3};
    double want[3] = {x[1], 3 * x[0], cos(x[2])};
    double truth[3] = {x[1], x[0], cos(x[2])};
    double dx[3] = {0}, ds[3] = {0};
    __enzyme_autodiff((void *)ruled, x, dx);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dx[i], want[i], REV_TOL_EXACT);
    /* (the rule's factor 3 aside, the true gradient) */
    double fixed[3] = {dx[0], dx[1] / 3, dx[2]};
    rev_check_grad(__FILE__, __LINE__, "rules", ruled_true, x, 3, fixed,
                   truth, REV_TOL_FD);
    tape_result a = __enzyme_augmentfwd_tr((void *)ruled, x, ds);
    CHECK_CLOSE(a.r, ruled_true(x), REV_TOL_EXACT);
    __enzyme_reverse((void *)ruled, x, ds, 1.0, a.tape);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(ds[i], dx[i], REV_TOL_EXACT);
  }
  return check_finish();
}
