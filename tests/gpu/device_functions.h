/* Functions differentiated on the host (tests/e2e/gpu_host_derivatives.cpp)
 * and in device code (gpu_gradients.cu, tests/lit/device/shared-source.cu)
 * from this one source: their derivatives are checked numerically on the
 * host, and on a GPU where one is present. */
#ifndef ADCC_TESTS_DEVICE_FUNCTIONS_H
#define ADCC_TESTS_DEVICE_FUNCTIONS_H

#include <math.h>

#ifndef __CUDACC__
#define __host__
#define __device__
#endif

/* f(x) = sin(x) x + sqrt(x) + exp(-x^2) */
static inline __host__ __device__ double point(double x) {
  return sin(x) * x + sqrt(x) + exp(-x * x);
}

/* f'(x) */
static inline __host__ __device__ double point_derivative(double x) {
  return cos(x) * x + sin(x) + 0.5 / sqrt(x) - 2.0 * x * exp(-x * x);
}

/* e(c, x) = c0 sin(x0) + c1 x0^2 + prod_{k<3} (1 + c2 x0 / (k + 1)):
 * a loop of constant trip count whose products the reverse sweep records. */
static inline __host__ __device__ double energy(const double *c, const double *x) {
  double e = c[0] * sin(x[0]) + c[1] * x[0] * x[0];
  double p = 1;
  for (int k = 0; k < 3; ++k)
    p *= 1.0 + c[2] * x[0] / (k + 1);
  return e + p;
}

/* The gradient of energy with respect to c (3) and x (1), by hand. */
static inline __host__ __device__ void energy_gradient(const double *c,
                                                const double *x, double *dc,
                                                double *dx) {
  double f[3], p = 1;
  for (int k = 0; k < 3; ++k) {
    f[k] = 1.0 + c[2] * x[0] / (k + 1);
    p *= f[k];
  }
  double dp_dc2 = 0, dp_dx = 0;
  for (int k = 0; k < 3; ++k) {
    double rest = p / f[k];
    dp_dc2 += rest * x[0] / (k + 1);
    dp_dx += rest * c[2] / (k + 1);
  }
  dc[0] = sin(x[0]);
  dc[1] = x[0] * x[0];
  dc[2] = dp_dc2;
  dx[0] = c[0] * cos(x[0]) + 2 * c[1] * x[0] + dp_dx;
}

#endif
