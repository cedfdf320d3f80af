/* Regression (derivative fuzzer, generator version 23, seed 245): second
 * derivatives through a new exponent added to a double's bits (`memcpy(&b,
 * &d, 8); b += 1ull << 52; memcpy(&y, &b, 8)`: y = 2 d). The first
 * derivative was right, but forward mode over the reverse-mode gradient
 * counted the scaled value's tangent twice: the primal rewrite that gives
 * the bits their derivative (prepare/ScaledFloatBits.cpp) ran again on the
 * gradient's copy of f. The Hessian by forward over reverse, forward over
 * forward and reverse over forward, against the closed form and central
 * differences of the gradient. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

/* d * 2^k for a normal d and result, by its exponent bits */
static double scaled(double d, int k) {
  unsigned long long b;
  double y;
  memcpy(&b, &d, sizeof b);
  b += (unsigned long long)(long long)k << 52;
  memcpy(&y, &b, sizeof y);
  return y;
}

/* atan(2 (1.5 + q^2)) + sin(x0 x1 / 8), q = 1.373 x0 - 1.64 */
static double f(const double *x) {
  double q = 1.373 * x[0] - 1.64;
  return atan(scaled(1.5 + q * q, 1)) + sin(scaled(x[0] * x[1], -3));
}

static void grad(const double *x, double *g) {
  double xb[2] = {x[0], x[1]};
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, xb, g);
}

/* the derivative of f along v */
static double along(const double *x, const double *v) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
}

static void hessian(const double *x, double H[2][2]) {
  double q = 1.373 * x[0] - 1.64, v = 2 * (1.5 + q * q);
  double dv = 4 * 1.373 * q, d2v = 4 * 1.373 * 1.373, r = 1 + v * v;
  double u = x[0] * x[1] / 8, s = sin(u), c = cos(u);
  H[0][0] = d2v / r - 2 * v * dv * dv / (r * r) - s * x[1] * x[1] / 64;
  H[0][1] = H[1][0] = c / 8 - s * x[0] * x[1] / 64;
  H[1][1] = -s * x[0] * x[0] / 64;
}

int main(void) {
  const double points[3][2] = {
      {0.9544663144150016, 0.7}, {1.6, -2.3}, {-0.4, 3.1}};
  for (int p = 0; p < 3; ++p) {
    const double *x = points[p];
    double H[2][2];
    hessian(x, H);
    for (int i = 0; i < 2; ++i) {
      double e[2] = {i == 0, i == 1};
      /* forward over reverse: column i */
      double g[2] = {0}, hv[2] = {0};
      __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, e, enzyme_dup, g,
                            hv);
      /* reverse over forward: the gradient of the derivative along e */
      double xb[2] = {x[0], x[1]}, rf[2] = {0};
      __enzyme_autodiff((void *)along, enzyme_dup, xb, rf, enzyme_const, e);
      /* central differences of the gradient */
      double h = 1e-5, xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]}, gp[2],
             gm[2];
      xp[i] += h;
      xm[i] -= h;
      grad(xp, gp);
      grad(xm, gm);
      for (int k = 0; k < 2; ++k) {
        double ek[2] = {k == 0, k == 1};
        /* forward over forward: e_k' H e_i */
        double ff = __enzyme_fwddiff((void *)along, enzyme_dup, x, ek,
                                     enzyme_const, e);
        CHECK_CLOSE(hv[k], H[i][k], 1e-12);
        CHECK_CLOSE(rf[k], H[i][k], 1e-12);
        CHECK_CLOSE(ff, H[i][k], 1e-12);
        CHECK_CLOSE(hv[k], (gp[k] - gm[k]) / (2 * h), 1e-7);
      }
    }
  }
  return check_finish();
}
