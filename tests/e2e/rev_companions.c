/* Partials taken from the primal's own calls: sin x and cos x (and sinh,
 * cosh) computed side by side, in either order, give each other's partial
 * instead of calling libm again (forward mode moves a companion that comes
 * second up; reverse mode records it).  Rotations in a loop that overwrites
 * its state, both orders, sinh/cosh, float, a companion in another block
 * (not used), a lone sin.  Central differences and forward against reverse
 * (dot-product test). */
#include "rev_check.h"

#define N 6

/* rotate consecutive pairs of u by angles from w, in place, twice */
static void rotate(double *u, const double *w, int n) {
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i + 1 < n; ++i) {
      double t = w[i] * u[i + 1];
      double c = cos(t), s = sin(t); /* cos first */
      double a = u[i], b = u[i + 1];
      u[i] = c * a - s * b;
      u[i + 1] = s * a + c * b;
    }
}
static double rotate_arr(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  rotate(u, x + N, N);
  double f = 0;
  for (int i = 0; i < N; ++i)
    f += (i + 1) * u[i] * u[i];
  return f;
}

/* sin first, then cos; sinh and cosh; a lone sin; cos in another block */
static double mixed(const double *x) {
  double s = sin(x[0] * x[1]), c = cos(x[0] * x[1]);
  double sh = sinh(x[2]) * x[3], ch = cosh(x[2]);
  double lone = sin(x[4]);
  double other = 0;
  if (x[5] > 0)
    other = cos(x[4]) * x[5];
  return s * s * x[2] + c * x[3] + sh * ch + lone * x[0] + other;
}

static float mixed_f(const float *x) {
  float c = cosf(x[0] + x[1]), s = sinf(x[0] + x[1]);
  return c * x[2] - s * s * x[3] + sinf(x[2]) * cosf(x[2]);
}
static double mixed_fd(const double *x) {
  double c = cos(x[0] + x[1]), s = sin(x[0] + x[1]);
  return c * x[2] - s * s * x[3] + sin(x[2]) * cos(x[2]);
}

int main(void) {
  CHECK_GRAD_AND_DOT(rotate_arr, 2 * N, 0.9);
  CHECK_GRAD_AND_DOT(mixed, N, 0.9);
  CHECK_GRAD_AND_DOT(mixed, N, 0.9); /* another point: x[5] may change sign */
  {
    float xf[4] = {0.3f, -0.8f, 1.2f, 0.6f}, gf[4] = {0};
    double xd[4] = {0.3f, -0.8f, 1.2f, 0.6f}, gd[4] = {0};
    __enzyme_autodiff((void *)mixed_f, xf, gf);
    __enzyme_autodiff((void *)mixed_fd, xd, gd);
    CHECK_GRAD(mixed_fd, xd, 4, gd, NULL);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(gf[i], gd[i], 1e-5);
  }
  return check_finish();
}
