/* enzyme_dupnoneed on an output array in forward mode: the caller wants the
 * tangents written through it, not the primal values, so adcc may skip the
 * primal's stores there (when the function only writes through the
 * pointer), in the function and in the callees it hands the pointer to.
 * Every tangent must equal the closed form, central differences and the
 * enzyme_dup result (and, at width 2, the width-1 results); a function
 * that reads its output back, and one that walks it with a moving
 * pointer, must stay right; enzyme_dup still writes the primal values. */
#include "dupnoneed_funcs.h"
#include "fwd_check.h"
#include <string.h>

void __enzyme_fwddiff_void(void *, ...);

/* Writes through a moving pointer. */
__attribute__((noinline)) static void walk(const double *x, double *out,
                                           int n) {
  for (int i = 0; i < n; ++i)
    *out++ = x[i] * x[i] * x[i];
}

static double DX[N] = {1.0, 0.5, -2.0, 0.25, 1.5};
static double DY[N] = {-0.5, 1.0, 0.75, 2.0, -1.0};

/* Residual k of the point along the line (X + t DX, Y + t DY). */
static int line_k;
static double residual_line(double t) {
  double x[N], y[N], e[3 * N];
  for (int i = 0; i < N; ++i)
    x[i] = X[i] + t * DX[i], y[i] = Y[i] + t * DY[i];
  residuals(x, y, e, N);
  return e[line_k];
}

static void check_residuals(void) {
  double err[3 * N], derr[3 * N], err_dup[3 * N], derr_dup[3 * N];
  double dx[N], dy[N];
  memcpy(dx, DX, sizeof dx);
  memcpy(dy, DY, sizeof dy);
  for (int i = 0; i < 3 * N; ++i)
    err[i] = err_dup[i] = 7, derr[i] = derr_dup[i] = 7;
  __enzyme_fwddiff_void((void *)residuals, enzyme_dup, X, dx, enzyme_dup, Y, dy,
                        enzyme_dupnoneed, err, derr, enzyme_const, N);
  __enzyme_fwddiff_void((void *)residuals, enzyme_dup, X, dx, enzyme_dup, Y, dy,
                        enzyme_dup, err_dup, derr_dup, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double a = X[i], b = Y[i], da = DX[i], db = DY[i];
    double exact[3] = {da * b + a * db, cos(a) * da + db,
                       2 * a * da * b + a * a * db};
    double primal[3] = {a * b, sin(a) + b, a * a * b};
    for (int c = 0; c < 3; ++c) {
      line_k = 3 * i + c;
      CHECK_TANGENT(derr[3 * i + c], exact[c], residual_line, 0.0);
      CHECK_TRUE(derr[3 * i + c] == derr_dup[3 * i + c]);
      CHECK_CLOSE(err_dup[3 * i + c], primal[c], FWD_TOL_EXACT);
    }
  }
}

/* Width 2: each lane as its own width-1 call (lane 1 along (DY, DX)). */
static void check_residuals_batch(void) {
  double err[3 * N], d0[3 * N], d1[3 * N], w0[3 * N], w1[3 * N];
  double dx0[N], dy0[N], dx1[N], dy1[N];
  memcpy(dx0, DX, sizeof dx0);
  memcpy(dy0, DY, sizeof dy0);
  memcpy(dx1, DY, sizeof dx1);
  memcpy(dy1, DX, sizeof dy1);
  __enzyme_fwddiff_void((void *)residuals, enzyme_width, 2, enzyme_dup, X, dx0,
                        dx1, enzyme_dup, Y, dy0, dy1, enzyme_dupnoneed, err, w0,
                        w1, enzyme_const, N);
  __enzyme_fwddiff_void((void *)residuals, enzyme_dup, X, dx0, enzyme_dup, Y,
                        dy0, enzyme_dupnoneed, err, d0, enzyme_const, N);
  __enzyme_fwddiff_void((void *)residuals, enzyme_dup, X, dx1, enzyme_dup, Y,
                        dy1, enzyme_dupnoneed, err, d1, enzyme_const, N);
  for (int i = 0; i < 3 * N; ++i) {
    CHECK_CLOSE(w0[i], d0[i], FWD_TOL_EXACT);
    CHECK_CLOSE(w1[i], d1[i], FWD_TOL_EXACT);
  }
  /* lane 1, point 0: d(a b) along (da, db) = (DY[0], DX[0]) */
  CHECK_CLOSE(w1[0], DY[0] * Y[0] + X[0] * DX[0], FWD_TOL_EXACT);
}

static double readback_line(double t) {
  double x[2] = {X[0] + t * DX[0], X[1] + t * DX[1]}, out[2];
  readback(x, out);
  return out[1];
}

static void check_readback(void) {
  double dx[2] = {DX[0], DX[1]}, out[2], dout[2], out2[2], dout2[2];
  __enzyme_fwddiff_void((void *)readback, enzyme_dup, X, dx, enzyme_dupnoneed,
                        out, dout);
  __enzyme_fwddiff_void((void *)readback, enzyme_dup, X, dx, enzyme_dup, out2,
                        dout2);
  double s = sin(X[0]), c = cos(X[0]);
  CHECK_CLOSE(dout[0], c * DX[0], FWD_TOL_EXACT);
  CHECK_TANGENT(dout[1], 2 * s * c * DX[0] * X[1] + s * s * DX[1],
                readback_line, 0.0);
  CHECK_TRUE(dout[0] == dout2[0] && dout[1] == dout2[1]);
  CHECK_CLOSE(out2[1], s * s * X[1], FWD_TOL_EXACT);
}

static void check_walk(void) {
  double dx[N], out[N], dout[N];
  memcpy(dx, DX, sizeof dx);
  __enzyme_fwddiff_void((void *)walk, enzyme_dup, X, dx, enzyme_dupnoneed, out,
                        dout, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dout[i], 3 * X[i] * X[i] * DX[i], FWD_TOL_EXACT);
}

int main(void) {
  check_residuals();
  check_residuals_batch();
  check_readback();
  check_walk();
  return check_finish();
}
