/* enzyme_dupnoneed on an output array in reverse mode: the caller seeds the
 * output's shadow and wants the gradient of the weighted outputs, not the
 * primal values, so adcc may skip the primal's stores there (when the
 * function only writes through the pointer), in the function and in the
 * callees it hands the pointer to. Every gradient must equal the closed
 * form, central differences, forward mode (dot-product test) and the
 * enzyme_dup result, and the output's shadow must be cleared; a function
 * that reads its output back must stay right. */
#include "dupnoneed_funcs.h"
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

static double W[3 * N] = {1.0,  -0.5, 0.25, 2.0,  0.75, -1.5, 0.5, 1.25,
                          -2.0, 0.3,  1.1,  -0.7, 0.9,  0.4,  -1.2};

/* The weighted residuals along x_k (k < N) or y_{k-N} (k >= N). */
static int line_k;
static double weighted_line(double t) {
  double x[N], y[N], e[3 * N], s = 0;
  memcpy(x, X, sizeof x);
  memcpy(y, Y, sizeof y);
  if (line_k < N)
    x[line_k] += t;
  else
    y[line_k - N] += t;
  residuals(x, y, e, N);
  for (int i = 0; i < 3 * N; ++i)
    s += W[i] * e[i];
  return s;
}

static void check_residuals(void) {
  double err[3 * N], derr[3 * N], err2[3 * N], derr2[3 * N];
  double dx[N] = {0}, dy[N] = {0}, dx2[N] = {0}, dy2[N] = {0};
  memcpy(derr, W, sizeof derr);
  memcpy(derr2, W, sizeof derr2);
  __enzyme_autodiff_void((void *)residuals, enzyme_dup, X, dx, enzyme_dup, Y,
                         dy, enzyme_dupnoneed, err, derr, enzyme_const, N);
  __enzyme_autodiff_void((void *)residuals, enzyme_dup, X, dx2, enzyme_dup, Y,
                         dy2, enzyme_dup, err2, derr2, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double a = X[i], b = Y[i];
    const double *w = &W[3 * i];
    double ga = w[0] * b + w[1] * cos(a) + w[2] * 2 * a * b;
    double gb = w[0] * a + w[1] + w[2] * a * a;
    CHECK_CLOSE(dx[i], ga, REV_TOL_EXACT);
    CHECK_CLOSE(dy[i], gb, REV_TOL_EXACT);
    line_k = i;
    CHECK_CLOSE(dx[i], fd_central(weighted_line, 0.0), REV_TOL_FD);
    line_k = N + i;
    CHECK_CLOSE(dy[i], fd_central(weighted_line, 0.0), REV_TOL_FD);
    CHECK_TRUE(dx[i] == dx2[i] && dy[i] == dy2[i]);
    CHECK_CLOSE(err2[3 * i + 2], a * a * b, REV_TOL_EXACT);
  }
  for (int i = 0; i < 3 * N; ++i)
    CHECK_TRUE(derr[i] == 0 && derr2[i] == 0);

  /* Dot-product test: <W, J v> (forward mode) = <J^T W, v>. */
  double v[N], u[N], e[3 * N], de[3 * N], lhs = 0, rhs = 0;
  for (int i = 0; i < N; ++i)
    v[i] = 0.1 * (i + 1), u[i] = -0.2 * i + 0.3;
  __enzyme_fwddiff_void((void *)residuals, enzyme_dup, X, v, enzyme_dup, Y, u,
                        enzyme_dupnoneed, e, de, enzyme_const, N);
  for (int i = 0; i < 3 * N; ++i)
    lhs += W[i] * de[i];
  for (int i = 0; i < N; ++i)
    rhs += dx[i] * v[i] + dy[i] * u[i];
  CHECK_CLOSE(lhs, rhs, REV_TOL_DOT);
}

static void check_readback(void) {
  double x[2] = {X[0], X[1]}, dx[2] = {0}, out[2], dout[2] = {0.5, -1.5};
  __enzyme_autodiff_void((void *)readback, enzyme_dup, x, dx, enzyme_dupnoneed,
                         out, dout);
  double s = sin(X[0]), c = cos(X[0]);
  CHECK_CLOSE(dx[0], 0.5 * c - 1.5 * 2 * s * c * X[1], REV_TOL_EXACT);
  CHECK_CLOSE(dx[1], -1.5 * s * s, REV_TOL_EXACT);
  CHECK_TRUE(dout[0] == 0 && dout[1] == 0);
}

int main(void) {
  check_residuals();
  check_readback();
  return check_finish();
}
