/* C99 complex arithmetic (double _Complex, float _Complex): products and
 * quotients (__muldc3, __divdc3, __mulsc3, __divsc3), cabs and carg, in
 * forward and reverse mode, against central differences and each other. */
#include "rev_check.h"

#include <complex.h>

static double cfun(const double *v) {
  double complex p = v[0] + v[1] * I, q = v[2] + v[3] * I;
  double complex r = p * q - p / (q + 2.0);
  return creal(r) * cimag(r) + cabs(p * p) - carg(q);
}
static float cfun_f(const float *v) {
  float complex p = v[0] + v[1] * I, q = v[2] + v[3] * I;
  float complex r = p * q - p / (q + 2.0f);
  return crealf(r) * cimagf(r) + cabsf(p * p) - cargf(q);
}

int main(void) {
  double v[4] = {0.6, -0.4, 1.3, 0.9}, g[4] = {0}, dir[4];
  __enzyme_autodiff((void *)cfun, v, g);
  CHECK_GRAD(cfun, v, 4, g, NULL);
  double s = rev_dir(g, dir, 4);
  CHECK_CLOSE(s, __enzyme_fwddiff((void *)cfun, v, dir), REV_TOL_DOT);

  float vf[4] = {0.6f, -0.4f, 1.3f, 0.9f}, gf[4] = {0};
  __enzyme_autodiff((void *)cfun_f, vf, gf);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(gf[i], g[i], 1e-5);
  printf("gradient %.12f %.12f %.12f %.12f\n", g[0], g[1], g[2], g[3]);
  return check_finish();
}
