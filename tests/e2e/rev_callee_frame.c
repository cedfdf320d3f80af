/* The sweeps of a callee that is not inlined (noinline here; in practice
 * one too large for the inliner), called once from a combined gradient's
 * sweeps, are inlined with them, and what the callee records outside its
 * loops (values, the shadows of its local arrays) lives in the gradient's
 * frame (docs/reverse-mode.md#how-it-works).  Cases: bundle adjustment's
 * reprojection error with its rotation in such a callee (restrict
 * pointers, local arrays, 3-iteration loops, a branch: the rotation's
 * limit at angle 0 is not taken at these points); the callee called
 * twice (its sweeps have two callers: they stay on the tape); the callee
 * called in a loop (inlined, its records in the loop stay on the tape);
 * a callee calling another one (both levels in the frame).  Central
 * differences and forward mode. */
#include "rev_check.h"

#define NOINLINE __attribute__((noinline))

/* the loop's trip count, read at run time */
int rev_callee_iters = 3;

static NOINLINE void rotate(const double *restrict r, const double *restrict a,
                            double *restrict out) {
  double t2 = 0;
  for (int i = 0; i < 3; i++)
    t2 += r[i] * r[i];
  if (t2 != 0) {
    double t = sqrt(t2), c = cos(t), s = sin(t), w[3], wa = 0;
    for (int i = 0; i < 3; i++)
      w[i] = r[i] / t;
    double wx[3] = {w[1] * a[2] - w[2] * a[1], w[2] * a[0] - w[0] * a[2],
                    w[0] * a[1] - w[1] * a[0]};
    for (int i = 0; i < 3; i++)
      wa += w[i] * a[i];
    for (int i = 0; i < 3; i++)
      out[i] = a[i] * c + wx[i] * s + w[i] * wa * (1 - c);
  } else {
    for (int i = 0; i < 3; i++)
      out[i] = a[i] + r[(i + 1) % 3] * a[(i + 2) % 3];
  }
}

/* x: camera (rotation 3, centre 3, focal, principal point 2, distortion 2),
 * point 3, weight: 15 inputs; the first residual of the observation */
static double reproj(const double *restrict x) {
  double a[3], p[3];
  for (int i = 0; i < 3; i++)
    a[i] = x[11 + i] - x[3 + i];
  rotate(x, a, p);
  double u = p[0] / p[2], v = p[1] / p[2], s = u * u + v * v;
  double L = 1 + x[9] * s + x[10] * s * s;
  return x[14] * (x[6] * L * u + x[7] - 0.3);
}

/* twice: rotate's sweeps have two callers each */
static double reproj_twice(const double *restrict x) {
  double p[3], q[3];
  rotate(x, x + 11, p);
  rotate(x + 3, x + 11, q);
  return p[0] / p[2] + q[1] * q[2] * x[14];
}

/* in a loop: the callee's records are made once per iteration */
static double reproj_loop(const double *restrict x) {
  double s = 0, p[3];
  for (int k = 0; k < rev_callee_iters; k++) {
    rotate(x + k, x + 11, p);
    s += p[k % 3] * x[14];
  }
  return s;
}

/* two levels: outer calls rotate, reproj2 calls outer */
static NOINLINE void outer(const double *restrict x, double *restrict p) {
  double a[3];
  for (int i = 0; i < 3; i++)
    a[i] = x[11 + i] * x[6] - x[3 + i];
  rotate(x, a, p);
}
static double reproj2(const double *restrict x) {
  double p[3];
  outer(x, p);
  return p[0] * p[1] / p[2] + x[14] * p[2];
}

#define N 15
#define check_case(f)                                                          \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = 0.2 + 0.6 * rev_rand();                                           \
    x[13] += 3; /* in front of the camera */                                   \
    __enzyme_autodiff((void *)f, x, g);                                        \
    printf("%-14s d/dx0 = %.12g\n", #f, g[0]);                                 \
    CHECK_GRAD(f, x, N, g, NULL);                                              \
    rev_dir(g, v, N);                                                          \
    CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)f, x, v));                     \
  } while (0)

int main(void) {
  for (int k = 0; k < 3; ++k) { /* three points */
    check_case(reproj);
    check_case(reproj_twice);
    check_case(reproj_loop);
    check_case(reproj2);
  }
  return check_finish();
}
