/* Copies whose contents the stack variables' declared types tell: a
 * memmove inside a local double array whose elements were only
 * zero-initialized (f, g) or stored through a variable index (h), and
 * struct assignments (memcpy at -O0) of a struct mixing doubles and an int
 * (k).  (Found by the random-program dot-product test; f, g and h used to be
 * rejected as copies "whose contents cannot be typed".) */
#include "rev_check.h"

static double f(const double *x) {
  double t[4] = {0};
  t[3] = x[0] * x[0];
  memmove(t + 2, t + 1, sizeof(double));
  double s = 0;
  for (int j = 0; j < 4; ++j)
    s += t[j] * (j + 1);
  return s;
}
static double g(const double *x) {
  double t[8] = {0};
  memmove(t + 5, t + 1, sizeof(double));
  return x[0] * x[1];
}

static double h(const double *x) {
  double t[8];
  for (int j = 0; j < 8; ++j)
    t[j] = 0.1 * j * x[j % 4];
  memmove(t + 2, t + 1, sizeof(double));
  double s = 0;
  for (int j = 0; j < 8; ++j)
    s += t[j];
  return s;
}

struct mixed {
  double a;
  int n;
  double b;
};
static double k(const double *x) {
  struct mixed p = {x[0], 3, x[1]}, q;
  q = p;
  struct mixed r[2];
  r[1] = q;
  r[0] = r[1];
  return r[0].a * r[0].b * r[0].n;
}

int main(void) {
  double x[2] = {2, 3}, dx[2] = {0};
  __enzyme_autodiff((void *)f, x, dx);
  CHECK_CLOSE(dx[0], 16.0, REV_TOL_EXACT);
  double dy[2] = {0};
  __enzyme_autodiff((void *)g, x, dy);
  CHECK_CLOSE(dy[0], 3.0, REV_TOL_EXACT);
  CHECK_CLOSE(dy[1], 2.0, REV_TOL_EXACT);
  double z[4] = {1, 2, 3, 4}, dz[4] = {0}, e[4] = {0.4, 0.7, 0.6, 1.0};
  __enzyme_autodiff((void *)h, z, dz);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(dz[i], e[i], REV_TOL_EXACT);
  double dk[2] = {0};
  __enzyme_autodiff((void *)k, x, dk);
  CHECK_CLOSE(dk[0], 9.0, REV_TOL_EXACT);
  CHECK_CLOSE(dk[1], 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(dk[0] * 0.5 - dk[1] * 0.25,
              __enzyme_fwddiff((void *)k, x, (double[2]){0.5, -0.25}),
              REV_TOL_DOT);
  return check_finish();
}
