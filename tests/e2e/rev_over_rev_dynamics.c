/* Reverse over reverse in objectives that use a gradient (issue 33, item
 * 9): a particle-dynamics loss that integrates with forces from the
 * gradient of an energy, and a minimax step (the outer objective after an
 * inner gradient-descent step). Both gradients are checked against
 * central differences of the objective, and the dynamics one also along a
 * direction against forward mode over the same objective. */
#include "rev_check.h"

enum { P = 4, D = 2, N = P * D, Steps = 3 };

/* springs between every pair of particles, rest length 1, and a soft wall */
static double energy(const double *q, const double *k) {
  double e = 0;
  for (int i = 0; i < P; ++i) {
    for (int j = i + 1; j < P; ++j) {
      double dx = q[D * i] - q[D * j], dy = q[D * i + 1] - q[D * j + 1];
      double r = sqrt(dx * dx + dy * dy);
      e += 0.5 * k[i] * k[j] * (r - 1) * (r - 1);
    }
    e += 0.1 * exp(q[D * i + 1]);
  }
  return e;
}

/* velocity Verlet with the forces -grad E; the loss is how far the
 * particles end from the origin, plus their kinetic energy */
static double loss(const double *q0, const double *k) {
  double q[N], v[N], f[N];
  for (int i = 0; i < N; ++i) {
    q[i] = q0[i];
    v[i] = 0;
  }
  const double dt = 0.1;
  for (int s = 0; s < Steps; ++s) {
    for (int i = 0; i < N; ++i)
      f[i] = 0;
    __enzyme_autodiff_void((void *)energy, enzyme_dup, q, f, enzyme_const, k);
    for (int i = 0; i < N; ++i) {
      v[i] -= 0.5 * dt * f[i];
      q[i] += dt * v[i];
    }
    for (int i = 0; i < N; ++i)
      f[i] = 0;
    __enzyme_autodiff_void((void *)energy, enzyme_dup, q, f, enzyme_const, k);
    for (int i = 0; i < N; ++i)
      v[i] -= 0.5 * dt * f[i];
  }
  double l = 0;
  for (int i = 0; i < N; ++i)
    l += q[i] * q[i] + 0.5 * v[i] * v[i];
  return l;
}

static const double stiffness[P] = {1.0, 1.5, 0.8, 1.2};
static double loss_q(const double *q) { return loss(q, stiffness); }

static void check_dynamics(void) {
  double q[N], dq[N] = {0}, dir[N], tq[N] = {0};
  for (int i = 0; i < N; ++i)
    q[i] = (i % D ? 0.8 : 1.1) * (i / D) + 0.3 * rev_rand();
  __enzyme_autodiff_void((void *)loss, enzyme_dup, q, dq, enzyme_const,
                         stiffness);
  CHECK_GRAD_TOL(loss_q, q, N, dq, NULL, 1e-5);
  /* <grad, dir> against forward mode over the loss (forward over reverse) */
  double want = rev_dir(dq, dir, N);
  (void)tq;
  double got = __enzyme_fwddiff((void *)loss, enzyme_dup, q, dir,
                                enzyme_const, stiffness);
  CHECK_CLOSE(want, got, REV_TOL_EXACT);
  printf("dynamics: dL/dq0 = %.12f\n", dq[0]);
}

/* minimax: one gradient step of the inner player y against f, then the
 * outer objective at the result */
static double game(double x, double y) {
  return x * x * y - 2 * y * y + sin(x + y) + 0.5 * x * x;
}

static double after_step(double x, double y0) {
  double gy = __enzyme_autodiff2((void *)game, x, y0).b;
  double y1 = y0 + 0.1 * gy; /* the inner player ascends */
  return game(x, y1);
}

static double step_y0;
static double after_step_x(double x) { return after_step(x, step_y0); }

static void check_minimax(double x, double y0) {
  rev_two g = __enzyme_autodiff2((void *)after_step, x, y0);
  step_y0 = y0;
  CHECK_CLOSE(g.a, fd_central(after_step_x, x), REV_TOL_FD);
  /* closed form: y1 = y0 + 0.1 (x^2 - 4 y0 + cos(x + y0)) */
  double c0 = cos(x + y0), s0 = sin(x + y0);
  double y1 = y0 + 0.1 * (x * x - 4 * y0 + c0);
  double dy1dx = 0.1 * (2 * x - s0), dy1dy0 = 1 + 0.1 * (-4 - s0);
  double fx = 2 * x * y1 + cos(x + y1) + x;
  double fy = x * x - 4 * y1 + cos(x + y1);
  CHECK_CLOSE(g.a, fx + fy * dy1dx, REV_TOL_EXACT);
  CHECK_CLOSE(g.b, fy * dy1dy0, REV_TOL_EXACT);
  /* forward over the same objective */
  CHECK_CLOSE(g.a, __enzyme_fwddiff((void *)after_step, x, 1.0, y0, 0.0),
              REV_TOL_EXACT);
  printf("minimax: %.12f %.12f\n", g.a, g.b);
}

int main(void) {
  check_dynamics();
  check_minimax(0.6, -0.2);
  check_minimax(-1.3, 0.9);
  return check_finish();
}
