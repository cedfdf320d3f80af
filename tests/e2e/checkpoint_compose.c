/* Checkpointed loops composed with the rest (docs/checkpointing.md): split
 * mode (__enzyme_augmentfwd / __enzyme_reverse) through a checkpointed
 * loop, a derivative declared with ADCC_REVERSE, nested checkpointed loops
 * (a step that itself runs a checkpointed loop), and a fixed point inside
 * a checkpointed step; each against the same code taped whole. */
#include "check.h"

#include <adcc.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

static void inner(double *y, const double *p) {
  double a = y[0];
  y[0] = y[0] + 0.01 * (p[0] * y[1] - sin(y[0]));
  y[1] = y[1] + 0.01 * (cos(a) - p[1] * y[1] * y[1]);
}

/* An outer step made of 7 inner steps, checkpointed themselves. */
static void outer(double *y, const double *p) {
  adcc_checkpointed_steps((void *)inner, 7, y, 2 * sizeof(double), (void *)p,
                          2 * sizeof(double), ADCC_REVOLVE, 2);
  y[1] += 0.001 * y[0] * p[0];
}

static void outer_taped(double *y, const double *p) {
  for (int i = 0; i < 7; ++i)
    inner(y, p);
  y[1] += 0.001 * y[0] * p[0];
}

static void run(const double *y0, const double *p, double *out) {
  double y[2] = {y0[0], y0[1]};
  adcc_checkpointed_steps((void *)inner, 40, y, sizeof y, (void *)p,
                          2 * sizeof(double), ADCC_INTERVAL, 5);
  *out = y[0] * y[1];
}

static double nested(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  adcc_checkpointed_steps((void *)outer, 12, y, sizeof y, (void *)p,
                          2 * sizeof(double), ADCC_REVOLVE, 3);
  return y[0] * y[1];
}

static double nested_taped(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  for (int i = 0; i < 12; ++i)
    outer_taped(y, p);
  return y[0] * y[1];
}

static double plain(const double *y0, const double *p, long n) {
  double y[2] = {y0[0], y0[1]};
  for (long i = 0; i < n; ++i)
    inner(y, p);
  return y[0] * y[1];
}

/* A step that solves a small implicit equation by a fixed point. */
static void relax(double *z, const double *y) { z[0] = 0.5 * cos(z[0]) + 0.3 * y[0]; }
static void implicit(double *y, const double *p) {
  double z[1] = {0};
  adcc_fixed_point((void *)relax, z, 1, y, sizeof *y, 1e-15, 200);
  y[0] = y[0] * p[0] + 0.1 * z[0];
}
static void implicit_taped(double *y, const double *p) {
  double z = 0;
  for (int i = 0; i < 200; ++i)
    z = 0.5 * cos(z) + 0.3 * y[0];
  y[0] = y[0] * p[0] + 0.1 * z;
}
static double with_solves(const double *y0, const double *p) {
  double y[1] = {y0[0]};
  adcc_checkpointed_steps((void *)implicit, 9, y, sizeof y, (void *)p,
                          sizeof *p, ADCC_REVOLVE, 2);
  return y[0];
}
static double with_solves_taped(const double *y0, const double *p) {
  double y[1] = {y0[0]};
  for (int i = 0; i < 9; ++i)
    implicit_taped(y, p);
  return y[0];
}

ADCC_REVERSE(d_declared, Duplicated, Duplicated, Const, Active)
double declared(const double *y0, const double *p, long n);
double declared(const double *y0, const double *p, long n) {
  double y[2] = {y0[0], y0[1]};
  adcc_checkpointed_steps((void *)inner, n, y, sizeof y, (void *)p,
                          2 * sizeof(double), ADCC_REVOLVE, 4);
  return y[0] * y[1];
}

int main(void) {
  const double y0[2] = {0.7, -0.2}, p[2] = {1.1, 0.4};
  double ry[2] = {0}, rp[2] = {0};
  __enzyme_autodiff((void *)plain, enzyme_dup, y0, ry, enzyme_dup, p, rp,
                    enzyme_const, 40L);

  /* split mode */
  double out = 0, dout = 1, dy[2] = {0}, dp[2] = {0};
  void *tape = __enzyme_augmentfwd((void *)run, enzyme_dup, y0, dy,
                                   enzyme_dup, p, dp, enzyme_dup, &out, &dout);
  CHECK_CLOSE(out, plain(y0, p, 40), 1e-15);
  __enzyme_reverse((void *)run, enzyme_dup, y0, dy, enzyme_dup, p, dp,
                   enzyme_dup, &out, &dout, tape);
  for (int i = 0; i < 2; ++i) {
    CHECK_CLOSE(dy[i], ry[i], 1e-12);
    CHECK_CLOSE(dp[i], rp[i], 1e-12);
  }

  /* declared derivative */
  memset(dy, 0, sizeof dy);
  memset(dp, 0, sizeof dp);
  d_declared(y0, dy, p, dp, 40, 1.0);
  for (int i = 0; i < 2; ++i) {
    CHECK_CLOSE(dy[i], ry[i], 1e-12);
    CHECK_CLOSE(dp[i], rp[i], 1e-12);
  }

  /* nested checkpointed loops */
  double ny[2] = {0}, np[2] = {0}, ty[2] = {0}, tp[2] = {0};
  __enzyme_autodiff((void *)nested, enzyme_dup, y0, ny, enzyme_dup, p, np);
  __enzyme_autodiff((void *)nested_taped, enzyme_dup, y0, ty, enzyme_dup, p,
                    tp);
  for (int i = 0; i < 2; ++i) {
    CHECK_CLOSE(ny[i], ty[i], 1e-12);
    CHECK_CLOSE(np[i], tp[i], 1e-12);
  }

  /* fixed points inside checkpointed steps */
  double sy[1] = {0}, sp[1] = {0}, qy[1] = {0}, qp[1] = {0};
  __enzyme_autodiff((void *)with_solves, enzyme_dup, y0, sy, enzyme_dup, p,
                    sp);
  __enzyme_autodiff((void *)with_solves_taped, enzyme_dup, y0, qy, enzyme_dup,
                    p, qp);
  CHECK_CLOSE(sy[0], qy[0], 1e-12);
  CHECK_CLOSE(sp[0], qp[0], 1e-12);
  return check_finish();
}
