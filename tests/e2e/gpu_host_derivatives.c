/* The functions that tests/gpu/gpu_gradients.cu differentiates in device
 * code, differentiated on the host from the same source
 * (tests/gpu/device_functions.h, written __host__ __device__): forward and
 * reverse mode against the analytic derivatives and central differences,
 * forward against reverse. The device builds of the same calls are
 * checked by ptxas in tests/lit/device/shared-source.cu. */
#include "../gpu/device_functions.h"
#include "check.h"

extern double __enzyme_fwddiff(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static double central(double (*f)(double), double x) {
  double h = 1e-6;
  return (f(x + h) - f(x - h)) / (2 * h);
}

static double energy_c(const double *c, double x, int j) {
  double cc[3] = {c[0], c[1], c[2]};
  double h = 1e-6, hi, lo;
  cc[j] += h;
  hi = energy(cc, &x);
  cc[j] -= 2 * h;
  lo = energy(cc, &x);
  return (hi - lo) / (2 * h);
}

int main(void) {
  for (double x = 0.25; x < 3; x += 0.5) {
    double fwd = __enzyme_fwddiff((void *)point, x, 1.0);
    double rev = __enzyme_autodiff((void *)point, x);
    CHECK_CLOSE(fwd, point_derivative(x), 1e-12);
    CHECK_CLOSE(rev, point_derivative(x), 1e-12);
    CHECK_CLOSE(fwd, central(point, x), 1e-7);
    CHECK_CLOSE(fwd, rev, 1e-13);
  }
  double c[3] = {0.7, -0.3, 0.9};
  for (double x = -1; x < 1.5; x += 0.5) {
    double dc[3] = {0, 0, 0}, dx = 0, want_c[3], want_x;
    __enzyme_autodiff((void *)energy, enzyme_dup, c, dc, enzyme_dup, &x, &dx);
    energy_gradient(c, &x, want_c, &want_x);
    for (int j = 0; j < 3; ++j) {
      CHECK_CLOSE(dc[j], want_c[j], 1e-12);
      CHECK_CLOSE(dc[j], energy_c(c, x, j), 1e-7);
    }
    CHECK_CLOSE(dx, want_x, 1e-12);
    /* Forward mode along x against reverse mode. */
    double zero[3] = {0, 0, 0}, one = 1;
    double tx = __enzyme_fwddiff((void *)energy, enzyme_dup, c, zero,
                                 enzyme_dup, &x, &one);
    CHECK_CLOSE(tx, dx, 1e-13);
  }
  return check_finish();
}
