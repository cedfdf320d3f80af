/* Reverse mode through floating-point data copied as integers: at -O1 and
 * up InstCombine turns small memcpy/memmove calls into integer loads and
 * stores (a double copied with memcpy, a one-double struct assignment, a
 * {float, float} struct read back as two floats from the copied bits, a
 * memmove by one element, an insertion sort). adcc follows them through a
 * floating-point view of the integer (its adjoint lives in a double or
 * <2 x float> slot). Closed forms at every level. (Before, these were
 * rejected, and earlier still the adjoint was lost silently.) */
#include "rev_check.h"

static double copy1(double *x) {
  memcpy(x + 1, x, sizeof(double));
  return x[1] * x[1];
}

typedef struct {
  double v;
} W;
static double wcopy(W *w) {
  w[1] = w[0];
  return w[1].v * w[1].v;
}

typedef struct {
  float a, b;
} F2;
static float f2copy(F2 *w) {
  w[1] = w[0];
  return w[1].a * w[1].b;
}

/* the overwritten slot must give up its adjoint: {6, 0, 18, 32} (once
 * {2, 8, 18, 32} at -O1) */
static double shift(const double *x) {
  double t[4];
  for (int j = 0; j < 4; ++j)
    t[j] = x[j] * x[j];
  memmove(t + 1, t, sizeof(double));
  double s = 0;
  for (int j = 0; j < 4; ++j)
    s += t[j] * (j + 1);
  return s;
}

static double sort5(const double *x) {
  double a[5];
  memcpy(a, x, sizeof a);
  for (int i = 1; i < 5; ++i) {
    double v = a[i];
    if (v < a[0]) {
      memmove(a + 1, a, i * sizeof(double));
      a[0] = v;
    } else {
      int j = i;
      while (v < a[j - 1]) {
        a[j] = a[j - 1];
        --j;
      }
      a[j] = v;
    }
  }
  double s = 0;
  for (int i = 0; i < 5; ++i)
    s += a[i] * (5 - i);
  return s;
}

int main(void) {
  double x[2] = {3, 5}, dx[2] = {0};
  __enzyme_autodiff((void *)copy1, x, dx);
  CHECK_CLOSE(dx[0], 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(dx[1], 0.0, REV_TOL_EXACT);
  W w[2] = {{3}, {5}}, dw[2] = {{0}, {0}};
  __enzyme_autodiff((void *)wcopy, w, dw);
  CHECK_CLOSE(dw[0].v, 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(dw[1].v, 0.0, REV_TOL_EXACT);
  F2 f[2] = {{3, 4}, {5, 6}}, df[2] = {{0, 0}, {0, 0}};
  __enzyme_autodiff_f((void *)f2copy, f, df);
  CHECK_CLOSE(df[0].a, 4.0, 1e-7);
  CHECK_CLOSE(df[0].b, 3.0, 1e-7);
  /* forward mode through the same bits */
  F2 g[2] = {{3, 4}, {5, 6}}, dg[2] = {{1, 0}, {0, 0}};
  CHECK_CLOSE(__enzyme_fwddiff_f((void *)f2copy, g, dg), 4.0, 1e-7);
  double z[4] = {1, 2, 3, 4}, dz[4] = {0}, ez[4] = {6, 0, 18, 32};
  __enzyme_autodiff((void *)shift, z, dz);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(dz[i], ez[i], REV_TOL_EXACT);
  double y[5] = {0.3, -1, 2, 0.5, 1.1}, dy[5] = {0}, e[5] = {4, 5, 1, 3, 2};
  __enzyme_autodiff((void *)sort5, y, dy);
  for (int i = 0; i < 5; ++i)
    CHECK_CLOSE(dy[i], e[i], REV_TOL_EXACT);
  return check_finish();
}
