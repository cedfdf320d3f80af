/* Reverse mode where the tape records the values others are computed from
 * (x instead of 0.01 * x, -x and 0.01 * x * x) and one slot serves every
 * instruction that needs the same value: an explicit in-place stencil with
 * a cubic term (per-iteration arrays), the same in a loop whose trip count
 * is known only at its exit (coalesced records), a value needed in both
 * arms of a branch inside a loop (only one arm records it per iteration),
 * and a libm result that other needed values are computed from.  Central
 * differences, forward mode (dot-product test), closed forms where simple. */
#include "rev_check.h"

#define N 9

/* u[i] <- u[i] + r (u[i-1] - 2 u[i] + u[i+1]) - c u[i]^3, in place */
static void cubic_heat(double *u, int n, int steps) {
  for (int s = 0; s < steps; ++s)
    for (int i = 1; i < n - 1; ++i)
      u[i] = u[i] + 0.2 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) -
             0.05 * u[i] * u[i] * u[i];
}
static double cubic_heat_sum(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  cubic_heat(u, N, 3);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * (i + 1);
  return s;
}

/* Runs until the accumulated |u| passes a limit: the trip count is known at
 * the exit only. */
static double until_limit(double *u, int n, double limit) {
  double acc = 0;
  int i = 0;
  while (acc < limit) {
    double v = u[i % n];
    u[i % n] = v - 0.1 * v * v * v + 0.01;
    acc += 1.0 + 0.1 * v * v;
    ++i;
  }
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += u[k] * u[k];
  return s;
}
static double until_limit_arr(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  return until_limit(u, N, 20.0);
}

/* Both arms need v (and 0.3 * v); either may run in an iteration. */
static void branchy(double *u, int n) {
  for (int i = 0; i < n; ++i) {
    double v = u[i];
    double w;
    if (v > 0)
      w = 0.3 * v * v;
    else
      w = sin(0.3 * v) * v;
    u[i] = w + v;
  }
}
static double branchy_arr(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  branchy(u, N);
  branchy(u, N);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * (2 - i);
  return s;
}

/* z = 0.5 sin(v) is needed by z * z and by z * v: both can come from
 * sin(v) and v. */
static void from_libm(double *u, int n) {
  for (int i = 0; i < n; ++i) {
    double v = u[i];
    double z = 0.5 * sin(v);
    u[i] = z * z + z * v;
  }
}
static double from_libm_arr(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  from_libm(u, N);
  from_libm(u, N);
  return u[0] + 2 * u[3] - u[N - 1];
}

int main(void) {
  CHECK_GRAD_AND_DOT(cubic_heat_sum, N, 0.8);
  CHECK_GRAD_AND_DOT(until_limit_arr, N, 0.8);
  CHECK_GRAD_AND_DOT(branchy_arr, N, 0.8);
  CHECK_GRAD_AND_DOT(from_libm_arr, N, 0.8);
  {
    /* one step, one interior point: d/du1 of u1 + 0.2 (u0 - 2 u1 + u2)
     * - 0.05 u1^3 is 1 - 0.4 - 0.15 u1^2 */
    double u[3] = {0.3, 0.7, -0.2}, du[3] = {0, 1, 0};
    __enzyme_autodiff((void *)cubic_heat, u, du, 3, 1);
    CHECK_CLOSE(du[1], 1 - 0.4 - 0.15 * 0.7 * 0.7, 1e-15);
    CHECK_CLOSE(du[0], 0.2, 1e-15);
    CHECK_CLOSE(du[2], 0.2, 1e-15);
  }
  return check_finish();
}
