/* Forward over forward mode of a function whose inner derivative reads the
 * tangent array the outer function writes (adfuzz v24 seed 236). The inner
 * derivative's loads of that array were tagged as shadow accesses
 * (noalias with primal memory) and kept the tag when it was differentiated
 * again, where the array is primal memory that the caller's stores (tagged
 * primal) fill: after inlining, LLVM read it as uninitialized memory (NaN
 * or a stale stack value, at -O1; reverse over forward alike). Checks the
 * Hessian's diagonal by both against its analytic values and against
 * central differences of the gradient. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_fof(void *, ...);
void __enzyme_autodiff(void *, ...);

#define NX 4
#define NOUT 2
#define NIN (NX + 1)
static const double W[NOUT] = {1.3535171597767188, 1.298192305460815};

/* a local array filled from x through a loop, one element read back */
static double f(const double *x, double s, int n, double *out) {
  double a2[7];
  for (int j = 0; j < 7; j++)
    a2[j] = atan(x[j % 4]) / s;
  out[0] = 0;
  out[1] = a2[5];
  return s + 0 * n;
}

/* the seed's function, reduced: kinks (fmax, fabs) away from the point */
static double h1(double a, double b) {
  if (log1p((a - 0.4082) * (a - 0.4082)) >= -0.5053)
    a = 0.6632 * a + 0.3368 * (b * -0.6849);
  return 0.6366 * atan(b);
}

static double g(const double *x, double s, int n, double *out) {
  double a2[7];
  for (int j = 0; j < 7; j++)
    a2[j] = 1.016 * x[j % 4] + h1(s, x[j % 4]) / (1.274 + s * s);
  double a4[5];
  for (int j = 0; j < 5; j++)
    a4[j] = -1.339 * x[j % 4] + fmax(s, -1.213);
  double v6 = fabs(-0.793 / (0.9502 + s * s));
  double v7 = sin(s) * tanh(a2[n - 1]);
  a2[n] = 3.183 * atan((a2[n] * a2[2] + fabs(x[(n + 2) % 4])) / 5.0);
  double v8 = v6 * tanh(a2[n] - v7);
  out[0] = 20.0 * sin((0.1685 * v6 - 0.3715 * s + 0.3915 * v8 -
                       0.3061 * a4[1]) / 20.0);
  out[1] = 20.0 * sin((1.24 * v6 + 0.9455 * v6 + 0.5399 * v7 +
                       0.5994 * cos(x[3]) + 0.9482 * x[0] + 0.1013 * a2[5]) /
                      20.0);
  out[1] += 0.2147 * ((double)n - x[3]);
  return cbrt(1.627 + (s + a4[(n + 3) % 5]) * (s + a4[(n + 3) % 5]));
}

/* the derivative of L = f + W . out along input i, by forward mode */
static double dcol_f(const double *v, int i) {
  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s = v[NX];
  memcpy(xb, v, sizeof xb);
  for (int k = 0; k < NX; k++)
    dx[k] = k == i;
  for (int j = 0; j < NOUT; j++)
    ob[j] = dob[j] = 0;
  double d = __enzyme_fwddiff((void *)f, enzyme_dup, xb, dx, enzyme_dup, s,
                              (double)(i == NX), enzyme_const, 4, enzyme_dup,
                              ob, dob);
  for (int j = 0; j < NOUT; j++)
    d += W[j] * dob[j];
  return d;
}

static double dcol_g(const double *v, int i) {
  double xb[NX], dx[NX], ob[NOUT], dob[NOUT], s = v[NX];
  memcpy(xb, v, sizeof xb);
  for (int k = 0; k < NX; k++)
    dx[k] = k == i;
  for (int j = 0; j < NOUT; j++)
    ob[j] = dob[j] = 0;
  double d = __enzyme_fwddiff((void *)g, enzyme_dup, xb, dx, enzyme_dup, s,
                              (double)(i == NX), enzyme_const, 4, enzyme_dup,
                              ob, dob);
  for (int j = 0; j < NOUT; j++)
    d += W[j] * dob[j];
  return d;
}

/* H[i][i] by forward over forward, by reverse over forward, and by central
 * differences of the forward-mode gradient at steps h and h / 4
 * (Richardson) */
static void hessian_diagonal(double (*dcol)(const double *, int),
                             const double *v, double *hfof, double *hrof,
                             double *hfd) {
  for (int i = 0; i < NIN; i++) {
    double vb[NIN], dv[NIN];
    memcpy(vb, v, sizeof vb);
    for (int k = 0; k < NIN; k++)
      dv[k] = k == i;
    hfof[i] = __enzyme_fwddiff_fof((void *)dcol, enzyme_dup, vb, dv,
                                   enzyme_const, i);
    double gv[NIN] = {0};
    memcpy(vb, v, sizeof vb);
    __enzyme_autodiff((void *)dcol, enzyme_dup, vb, gv, enzyme_const, i);
    hrof[i] = gv[i];
    double q[2];
    for (int r = 0; r < 2; r++) {
      double h = r ? 2.5e-4 : 1e-3, w[NIN];
      memcpy(w, v, sizeof w);
      w[i] = v[i] + h;
      double gp = dcol(w, i);
      w[i] = v[i] - h;
      double gm = dcol(w, i);
      q[r] = (gp - gm) / (2 * h);
    }
    hfd[i] = (16 * q[1] - q[0]) / 15;
  }
}

int main(void) {
  const double v[NIN] = {-0.4731198238265659, -0.10145425087576232,
                         0.8267938104837067, -0.16633042251715757,
                         -0.27147836483575793};
  double hfof[NIN], hrof[NIN], hfd[NIN];

  hessian_diagonal(dcol_f, v, hfof, hrof, hfd);
  /* L = s + W1 atan(x1) / s */
  double x1 = v[1], s = v[NX], q = 1 + x1 * x1;
  const double want[NIN] = {0, W[1] * (-2 * x1 / (q * q)) / s, 0, 0,
                            W[1] * 2 * atan(x1) / (s * s * s)};
  for (int i = 0; i < NIN; i++) {
    CHECK_CLOSE(hfof[i], want[i], 1e-12);
    CHECK_CLOSE(hrof[i], want[i], 1e-12);
    CHECK_CLOSE(hfd[i], want[i], 1e-7);
  }

  hessian_diagonal(dcol_g, v, hfof, hrof, hfd);
  for (int i = 0; i < NIN; i++) {
    CHECK_TRUE(isfinite(hfof[i]) && isfinite(hrof[i]));
    CHECK_CLOSE(hfof[i], hfd[i], 1e-6);
    CHECK_CLOSE(hrof[i], hfof[i], 1e-12);
  }
  return check_finish();
}
