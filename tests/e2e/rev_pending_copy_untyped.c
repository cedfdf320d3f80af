/* PENDING (not registered): a memmove inside a local double array is
 * rejected when the source is not at offset 0 and the elements were stored
 * through a variable index (h), or only zero-initialized (f, g), although
 * the array's type says double:
 *   error: cannot differentiate 'f' in reverse mode: a memory copy whose
 *   contents cannot be typed; copy the values one by one
 * - f (t[1] is 0 from `= {0}`): rejected at -O0 in this file; alone in a
 *   file with the same main it is accepted at -O0/-O1 and rejected at -O2;
 * - g (the array is never read afterwards): rejected at -O0;
 * - h (t[j] = ... in a loop, then memmove(t + 2, t + 1, 8)): rejected at
 *   -O0 (memmove(t + 1, t, 8) is accepted); at -O1 the integer-copy
 *   error of rev_pending_int_copy.c (silently wrong before the 21:06
 *   build).
 * (Found by the random-program dot-product test.) */
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
  return check_finish();
}
