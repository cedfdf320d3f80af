/* Idiom corpus, physics codes: a leapfrog n-body step with softening, a
 * 1-D Burgers scheme with a minmod limiter and upwind fluxes through
 * fmax/fmin, an SPH density sum with a cubic-spline kernel cut off at 2h,
 * and a small neural network whose ReLU sits exactly at 0 for one unit
 * (its derivative there is 0: `z > 0 ? z : 0` takes the 0). Both modes,
 * central differences, exact values at the kink (probe_check.h). */
#include "probe_check.h"
/* leapfrog (kick-drift-kick) n-body with softening: x[0..6) positions of
 * 3 bodies in 2-D, x[6..12) velocities */
static void accelerations(double (*a)[2], const double (*p)[2], const double *m,
                          double eps2) {
  for (int i = 0; i < 3; ++i)
    a[i][0] = a[i][1] = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      double dx = p[j][0] - p[i][0], dy = p[j][1] - p[i][1];
      double r2 = dx * dx + dy * dy + eps2;
      double inv = 1.0 / (r2 * sqrt(r2));
      a[i][0] += m[j] * dx * inv;
      a[i][1] += m[j] * dy * inv;
      a[j][0] -= m[i] * dx * inv;
      a[j][1] -= m[i] * dy * inv;
    }
}
static double f_nbody(const double *x) {
  double p[3][2], v[3][2], a[3][2];
  const double m[3] = {1.0, 0.5, 0.25}, eps2 = 0.01, dt = 0.05;
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 2; ++d) {
      p[i][d] = x[2 * i + d];
      v[i][d] = x[6 + 2 * i + d];
    }
  accelerations(a, (const double(*)[2])p, m, eps2);
  for (int step = 0; step < 10; ++step) {
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 2; ++d) {
        v[i][d] += 0.5 * dt * a[i][d];
        p[i][d] += dt * v[i][d];
      }
    accelerations(a, (const double(*)[2])p, m, eps2);
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 2; ++d)
        v[i][d] += 0.5 * dt * a[i][d];
  }
  double e = 0;
  for (int i = 0; i < 3; ++i)
    e += 0.5 * m[i] * (v[i][0] * v[i][0] + v[i][1] * v[i][1]) +
         p[i][0] * p[i][1];
  return e;
}
/* 1-D Burgers, upwind with a minmod limiter (ties: constant pieces) */
#define NX 8
static double minmod(double a, double b) {
  if (a * b <= 0)
    return 0;
  return fabs(a) < fabs(b) ? a : b;
}
static double f_burgers(const double *x) {
  double u[NX], un[NX], slope[NX];
  for (int i = 0; i < NX; ++i)
    u[i] = x[i];
  const double dtdx = 0.2;
  for (int step = 0; step < 5; ++step) {
    for (int i = 0; i < NX; ++i) {
      int l = (i + NX - 1) % NX, r = (i + 1) % NX;
      slope[i] = minmod(u[i] - u[l], u[r] - u[i]);
    }
    for (int i = 0; i < NX; ++i) {
      int l = (i + NX - 1) % NX;
      double ul = u[l] + 0.5 * slope[l], uc = u[i] + 0.5 * slope[i];
      double fl =
          0.5 * fmax(ul, 0) * fmax(ul, 0) + 0.5 * fmin(ul, 0) * fmin(ul, 0);
      double fc =
          0.5 * fmax(uc, 0) * fmax(uc, 0) + 0.5 * fmin(uc, 0) * fmin(uc, 0);
      un[i] = u[i] - dtdx * (fc - fl);
    }
    for (int i = 0; i < NX; ++i)
      u[i] = un[i];
  }
  double s = 0;
  for (int i = 0; i < NX; ++i)
    s += u[i] * u[i] * (i + 1);
  return s;
}
/* SPH density with a cubic spline kernel and a cutoff */
static double W(double r, double h) {
  double q = r / h;
  if (q >= 2)
    return 0;
  double s = 10.0 / (7 * M_PI * h * h);
  if (q < 1)
    return s * (1 - 1.5 * q * q + 0.75 * q * q * q);
  double t = 2 - q;
  return s * 0.25 * t * t * t;
}
static double f_sph(const double *x) {
  /* 5 particles in 2-D */
  double rho_sum = 0;
  for (int i = 0; i < 5; ++i) {
    double rho = 0;
    for (int j = 0; j < 5; ++j) {
      double dx = x[2 * i] - x[2 * j], dy = x[2 * i + 1] - x[2 * j + 1];
      double r = sqrt(dx * dx + dy * dy + 1e-300);
      rho += W(r, 0.6);
    }
    rho_sum += rho * rho;
  }
  return rho_sum;
}
/* tiny neural net with ReLU at 0 */
static double relu(double z) { return z > 0 ? z : 0; }
static double f_nn(const double *x) {
  /* input x[0..2), weights W1 x[2..8) (3x2), b1 x[8..11), W2 x[11..14) */
  double h[3];
  for (int j = 0; j < 3; ++j)
    h[j] = relu(x[2 + 2 * j] * x[0] + x[3 + 2 * j] * x[1] + x[8 + j]);
  double o = 0;
  for (int j = 0; j < 3; ++j)
    o += x[11 + j] * h[j];
  return o * o;
}
int main(void) {
  PROBE(f_nbody, 12, 0.0, 0.0, 1.0, 0.1, -0.3, 0.9, 0.1, 0.2, -0.2, 0.3, 0.05,
        -0.4);
  PROBE(f_burgers, 8, 0.1, 0.45, 0.72, 0.5, -0.2, -0.6, 0.3, 0.25);
  PROBE(f_sph, 10, 0.0, 0.0, 0.5, 0.1, -0.3, 0.4, 0.2, -0.5, 0.9, 0.8);
  PROBE(f_nn, 14, 0.5, -1.0, 0.3, 0.7, -0.4, 0.2, 0.6, 0.1, 0.05, 0.0, -0.2,
        0.9, -1.1, 0.4);
  /* ReLU exactly at 0: hidden unit 1 has 0.5*-0.4 + -1*0.2 ... set z = 0
   * exactly */
  {
    /* h1: x4*x0 + x5*x1 + x9 = 0.4*0.5 + 0.2*-1 + 0 = 0 -> relu' = 0 (z > 0
     * false) */
    double x[14] = {0.5, -1.0, 0.3, 0.7,  0.4, 0.2,  0.6,
                    0.1, 0.05, 0.0, -0.2, 0.9, -1.1, 0.4};
    double g[14] = {0}, t[14];
    __enzyme_autodiff((void *)f_nn, enzyme_dup, x, g);
    /* exact: o = sum w2 h; dL/dw2_j = 2 o h_j; h1 = 0 so d/dx[12] = 0 and W1
     * row 1 gets 0 */
    double h0 = relu(0.3 * 0.5 + 0.7 * -1 + 0.05),
           h2 = relu(0.6 * 0.5 + 0.1 * -1 - 0.2);
    double o = 0.9 * h0 + 0.4 * h2;
    CHECK_CLOSE(g[11], 2 * o * h0, 1e-12);
    CHECK_CLOSE(g[12], 0.0, 1e-12);
    CHECK_CLOSE(g[4], 0.0, 1e-12);
    CHECK_CLOSE(g[9], 0.0, 1e-12);
    for (int i = 0; i < 14; ++i) {
      memset(t, 0, sizeof t);
      t[i] = 1;
      CHECK_CLOSE(__enzyme_fwddiff((void *)f_nn, enzyme_dup, x, t), g[i],
                  1e-12);
    }
  }
  return check_finish();
}
