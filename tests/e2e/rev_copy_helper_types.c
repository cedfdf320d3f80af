/* One `void *` byte-copy helper used for several types, as miniMD's MPI
 * stubs' MPI_Allreduce (`memcpy(recv, send, count * size)`) is for its
 * energies and its atom counts: at -O0 the helper stays a call, and until
 * 2026-12-06 reverse mode refused it ("a memory copy whose contents cannot
 * be typed"). Each call now calls a copy of the helper of its own, typed by
 * what that call passes (prepare/CopyHelperClones.cpp). Checked against
 * analytic values, central differences and forward mode. */
#include "check.h"

#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

int reduce_copy(void *d, const void *s, int n, int size) {
  memcpy(d, s, (size_t)n * size);
  return 0;
}

static double f(const double *x) {
  double t[3] = {x[0] * x[0], 3 * x[1], sin(x[2])}, r[3];
  int ni[2] = {2, 5}, no[2];
  double e = x[0] * x[1], esum;
  reduce_copy(r, t, 3, sizeof(double));
  reduce_copy(no, ni, 2, sizeof(int));
  reduce_copy(&esum, &e, 1, sizeof(double));
  return r[0] * no[1] + r[1] * no[0] + r[2] * esum;
}

int main(void) {
  const double x[3] = {0.7, -1.3, 0.4};
  double g[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  double e = x[0] * x[1], s2 = sin(x[2]);
  CHECK_CLOSE(g[0], 5 * 2 * x[0] + s2 * x[1], 1e-12);
  CHECK_CLOSE(g[1], 2 * 3 + s2 * x[0], 1e-12);
  CHECK_CLOSE(g[2], cos(x[2]) * e, 1e-12);
  const double tx[3] = {1, -0.5, 2};
  double dot = 0;
  for (int i = 0; i < 3; ++i) {
    double h = 1e-6, xp[3], xm[3];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(g[i], (f(xp) - f(xm)) / (2 * h), 1e-6);
    dot += g[i] * tx[i];
  }
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, tx), dot, 1e-12);
  return check_finish();
}
