/* Reverse mode of out-of-place stencils on restrict arrays, whose reverse
 * loops carry an adjoint from one iteration to the next (the primal reuses
 * the load of u[i+1] as u[i]) and which adcc reorders so that they
 * vectorize: a 1-D reaction-diffusion pair of half steps, a 3-point filter
 * and a 2-D 5-point stencil. Odd sizes leave remainder iterations after the
 * vector loop. Central differences and forward mode (dot-product test). */
#include "rev_check.h"

#define N 41
#define G 7 /* 2-D grid G x G */

static void half_step(const double *restrict u, double *restrict w, int n) {
  for (int i = 1; i < n - 1; i++)
    w[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) -
           0.05 * u[i] * u[i] * u[i];
}
static void heat_pair(const double *restrict u0, double *restrict u,
                      double *restrict w, int n, int steps) {
  for (int i = 0; i < n; i++)
    u[i] = w[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    half_step(u, w, n);
    half_step(w, u, n);
  }
}
static double heat_pair_sum(const double *x) {
  double u[N], w[N];
  heat_pair(x, u, w, N, 3);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * (i % 5 + 1);
  return s;
}

/* y[i] = a x[i-1] + b x[i] + c x[i+1] with a moving weight, then sum y^2 */
static void filter3(const double *restrict x, double *restrict y, int n) {
  for (int i = 1; i < n - 1; i++)
    y[i] = 0.3 * x[i - 1] + (1.0 + 0.01 * i) * x[i] - 0.2 * x[i + 1];
}
static double filter3_energy(const double *x) {
  double y[N] = {0};
  filter3(x, y, N);
  double s = 0;
  for (int i = 1; i < N - 1; ++i)
    s += y[i] * y[i];
  return s;
}

static void stencil_2d(const double *restrict u, double *restrict w, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      long c = (long)i * n + j;
      double v = u[c];
      w[c] = v + 0.2 * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4 * v) -
             0.05 * v * v * v;
    }
}
static double stencil_2d_sum(const double *x) {
  double u[G * G], w[G * G];
  for (int i = 0; i < G * G; ++i)
    u[i] = w[i] = x[i];
  for (int s = 0; s < 2; ++s) {
    stencil_2d(u, w, G);
    stencil_2d(w, u, G);
  }
  double s = 0;
  for (int i = 0; i < G * G; ++i)
    s += u[i] * u[i] * (i % 3 + 1);
  return s;
}

int main(void) {
  CHECK_GRAD_AND_DOT(heat_pair_sum, N, 0.8);
  CHECK_GRAD_AND_DOT(filter3_energy, N, 1.0);
  CHECK_GRAD_AND_DOT(stencil_2d_sum, G * G, 0.8);
  {
    /* the filter's adjoint in closed form: dx[i-1] += 0.3 dy[i],
     * dx[i] += (1 + 0.01 i) dy[i], dx[i+1] -= 0.2 dy[i] */
    double x[N], dx[N] = {0}, y[N], dy[N], want[N] = {0};
    for (int i = 0; i < N; ++i) {
      x[i] = rev_rand();
      dy[i] = rev_rand();
    }
    for (int i = 1; i < N - 1; ++i) {
      want[i - 1] += 0.3 * dy[i];
      want[i] += (1.0 + 0.01 * i) * dy[i];
      want[i + 1] -= 0.2 * dy[i];
    }
    __enzyme_autodiff((void *)filter3, x, dx, y, dy, N);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(dx[i], want[i], REV_TOL_EXACT);
  }
  return check_finish();
}
