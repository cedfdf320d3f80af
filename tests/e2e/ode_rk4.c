/* RK4 integration of y' = -k y and of a harmonic oscillator, compared with
 * the analytic solutions; a stencil sum checked against its closed form. */
#include "check.h"

typedef void (*rhs_fn)(double t, const double *y, double *dy, int n,
                       const double *p);

static void decay(double t, const double *y, double *dy, int n,
                  const double *p) {
  (void)t;
  for (int i = 0; i < n; ++i)
    dy[i] = -p[0] * y[i];
}

static void oscillator(double t, const double *y, double *dy, int n,
                       const double *p) {
  (void)t;
  (void)n;
  dy[0] = y[1];
  dy[1] = -p[0] * p[0] * y[0];
}

static void rk4(rhs_fn f, double *y, int n, const double *p, double t1,
                int steps) {
  double k1[8], k2[8], k3[8], k4[8], tmp[8];
  double h = t1 / steps, t = 0;
  for (int s = 0; s < steps; ++s, t += h) {
    f(t, y, k1, n, p);
    for (int i = 0; i < n; ++i)
      tmp[i] = y[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, tmp, k2, n, p);
    for (int i = 0; i < n; ++i)
      tmp[i] = y[i] + 0.5 * h * k2[i];
    f(t + 0.5 * h, tmp, k3, n, p);
    for (int i = 0; i < n; ++i)
      tmp[i] = y[i] + h * k3[i];
    f(t + h, tmp, k4, n, p);
    for (int i = 0; i < n; ++i)
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
}

static double stencil_sum(int n) {
  /* sum over interior points of (u[i-1] - 2u[i] + u[i+1]) for u[i] = i^2:
   * every term is 2. */
  double u[256], s = 0;
  for (int i = 0; i < n; ++i)
    u[i] = (double)i * i;
  for (int i = 1; i + 1 < n; ++i)
    s += u[i - 1] - 2 * u[i] + u[i + 1];
  return s;
}

int main(void) {
  double y[3] = {1, 2, 3}, k = 0.7;
  rk4(decay, y, 3, &k, 2.0, 200);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(y[i], (i + 1) * exp(-k * 2.0), 1e-9);

  double w = 3.0, z[2] = {1, 0};
  rk4(oscillator, z, 2, &w, 1.5, 2000);
  CHECK_CLOSE(z[0], cos(w * 1.5), 1e-9);
  CHECK_CLOSE(z[1], -w * sin(w * 1.5), 1e-8);

  CHECK_CLOSE(stencil_sum(200), 2.0 * 198, 0);
  return check_finish();
}
