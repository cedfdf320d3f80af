/* A gradient whose whole tape fits in its caller's frame: bundle
 * adjustment's reprojection error of one observation, written as usual
 * (small fixed-size arrays, 3-iteration loops, a branch), differentiated
 * per residual row in a loop over observations. Its records outside loops,
 * the per-iteration arrays of its constant-trip loops and the shadows of
 * its stack arrays all live in the combined gradient's frame once
 * optimized: the thread's tape is never touched (checked at -O1 and
 * above). Every row is checked against central differences and every
 * coordinate against forward mode; with -ffast-math -fno-unroll-loops
 * (the flags of Enzyme's ADBench builds) the loops stay loops. */
#include "rev_check.h"

#include <adcc.h>
#include <string.h>

extern int enzyme_dupnoneed;

static void cross3(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rotate(const double *rot, const double *X, double *out) {
  double t2 = 0;
  for (int i = 0; i < 3; i++)
    t2 += rot[i] * rot[i];
  if (t2 != 0) {
    double theta = sqrt(t2), c = cos(theta), s = sin(theta);
    double w[3], wx[3], d = 0;
    for (int i = 0; i < 3; i++)
      w[i] = rot[i] / theta;
    cross3(w, X, wx);
    for (int i = 0; i < 3; i++)
      d += w[i] * X[i];
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * c + wx[i] * s + w[i] * (1 - c) * d;
  } else {
    double rx[3];
    cross3(rot, X, rx);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] + rx[i];
  }
}

/* cam: rotation[3], center[3], focal, principal point[2], distortion[2] */
static void residual(const double *cam, const double *X, const double *w,
                     const double *feat, double *err) {
  double Xo[3], Xc[3], p[2];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[3 + i];
  rotate(cam, Xo, Xc);
  p[0] = Xc[0] / Xc[2];
  p[1] = Xc[1] / Xc[2];
  double r2 = p[0] * p[0] + p[1] * p[1];
  double L = 1 + cam[9] * r2 + cam[10] * r2 * r2;
  for (int i = 0; i < 2; i++)
    err[i] = w[0] * (cam[6] * L * p[i] + cam[7 + i] - feat[i]);
}

/* One row of the Jacobian of observation (cam, X, w): 11 + 3 + 1 entries. */
static void row(const double *u, const double *feat, int r, double *g) {
  double err[2], derr[2] = {r == 0, r == 1};
  memset(g, 0, 15 * sizeof *g);
  __enzyme_autodiff((void *)residual, enzyme_dup, u, g, enzyme_dup, u + 11,
                    g + 11, enzyme_dup, u + 14, g + 14, enzyme_const, feat,
                    enzyme_dupnoneed, err, derr);
}

static const double *feat_now;
static int row_now;
static double value(const double *u) {
  double err[2];
  residual(u, u + 11, u + 14, feat_now, err);
  return err[row_now];
}

int main(void) {
  enum { OBS = 6 };
  double u[OBS][15], feat[OBS][2];
  for (int o = 0; o < OBS; o++) {
    for (int i = 0; i < 15; i++)
      u[o][i] = 0.3 * rev_rand();
    u[o][6] = 500 + 50 * rev_rand(); /* focal length */
    u[o][13] = 10 + rev_rand();      /* the point well in front */
    u[o][14] = 1 + 0.4 * rev_rand(); /* weight */
    feat[o][0] = 20 * rev_rand();
    feat[o][1] = 20 * rev_rand();
  }
  for (int i = 0; i < 3; i++) /* no rotation: the other branch */
    u[OBS - 1][i] = 0;
  double J[OBS][2][15];
  for (int o = 0; o < OBS; o++)
    for (int r = 0; r < 2; r++)
      row(u[o], feat[o], r, J[o][r]);
  for (int o = 0; o < OBS; o++)
    for (int r = 0; r < 2; r++) {
      feat_now = feat[o];
      row_now = r;
      CHECK_GRAD_TOL(value, u[o], 15, J[o][r], NULL, 1e-6);
      for (int i = 0; i < 15; i++) {
        double du[15] = {0}, err[2], derr[2];
        du[i] = 1;
        __enzyme_fwddiff((void *)residual, enzyme_dup, u[o], du, enzyme_dup,
                         u[o] + 11, du + 11, enzyme_dup, u[o] + 14, du + 14,
                         enzyme_const, feat[o], enzyme_dup, err, derr);
        CHECK_CLOSE(J[o][r][i], derr[r], REV_TOL_EXACT);
      }
    }
  adcc_tape_stats st;
  adcc_tape_get_stats(adcc_tape_thread(), &st);
  CHECK_CLOSE((double)st.live_bytes, 0, 0);
#ifdef __OPTIMIZE__
  /* Nothing was ever pushed on the thread's tape. */
  CHECK_CLOSE((double)st.reserved_bytes, 0, 0);
#endif
  printf("d err0 / d focal = %.12f\n", J[0][0][6]);
  printf("frame records: ok\n");
  return check_finish();
}
