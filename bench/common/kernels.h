/*===- kernels.h - The kernels the benchmarks differentiate -------------===*
 *
 * Shared by bench/forward and bench/reverse (included from their sources),
 * so that both modes are measured on exactly the same functions: dot, sum
 * of squares, Rosenbrock, logsumexp, matvec, matmul, a 1-D heat equation, a
 * 2-D stencil and RK4 on a Michaelis-Menten reaction network.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_KERNELS_H
#define ADCC_BENCH_KERNELS_H

#include <math.h>

static double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

static double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double t = x[i + 1] - x[i] * x[i], u = 1.0 - x[i];
    f += 100.0 * t * t + u * u;
  }
  return f;
}

static double logsumexp(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return m + log(s);
}

/* y = A x, A n-by-n row-major (A constant, x active). */
static void matvec(const double *restrict A, const double *restrict x,
                   double *restrict y, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[(long)i * n + j] * x[j];
    y[i] = s;
  }
}

/* C = A B, all n-by-n row-major (A active, B constant), i-k-j order. */
static void matmul(const double *restrict A, const double *restrict B,
                   double *restrict C, int n) {
  for (int i = 0; i < n; i++) {
    double *restrict c = C + (long)i * n;
    for (int j = 0; j < n; j++)
      c[j] = 0;
    for (int k = 0; k < n; k++) {
      double a = A[(long)i * n + k];
      const double *restrict b = B + (long)k * n;
      for (int j = 0; j < n; j++)
        c[j] += a * b[j];
    }
  }
}

/* Explicit reaction-diffusion in 1-D: u_t = u_xx - u^3, fixed ends;
 * 2*steps time steps from u0 into u (w is a work array). */
#define HEAT_R 0.25
#define HEAT_C 0.01
static void heat1d(const double *restrict u0, double *restrict u,
                   double *restrict w, int n, int steps) {
  for (int i = 0; i < n; i++)
    u[i] = u0[i];
  w[0] = u[0];
  w[n - 1] = u[n - 1];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + HEAT_R * (u[i - 1] - 2.0 * u[i] + u[i + 1]) -
             HEAT_C * u[i] * u[i] * u[i];
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i] + HEAT_R * (w[i - 1] - 2.0 * w[i] + w[i + 1]) -
             HEAT_C * w[i] * w[i] * w[i];
  }
}

/* The same on an n-by-n grid with the 5-point Laplacian. */
#define ST_R 0.2
#define ST_C 0.01
static void stencil2d(const double *restrict u0, double *restrict u,
                      double *restrict w, int n, int steps) {
  for (long i = 0; i < (long)n * n; i++)
    u[i] = u0[i];
  for (long i = 0; i < (long)n * n; i++)
    w[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        long c = (long)i * n + j;
        double v = u[c];
        w[c] = v + ST_R * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4 * v) -
               ST_C * v * v * v;
      }
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        long c = (long)i * n + j;
        double v = w[c];
        u[c] = v + ST_R * (w[c - n] + w[c + n] + w[c - 1] + w[c + 1] - 4 * v) -
               ST_C * v * v * v;
      }
  }
}

/* Michaelis-Menten reaction network E + S <-> ES -> E + P (rate constants
 * k[0..2], state E, S, ES, P), integrated by classical RK4 from y0. */
static inline void mm_rhs(const double *k, const double *y, double *f) {
  double v1 = k[0] * y[0] * y[1], v2 = k[1] * y[2], v3 = k[2] * y[2];
  f[0] = -v1 + v2 + v3;
  f[1] = -v1 + v2;
  f[2] = v1 - v2 - v3;
  f[3] = v3;
}

static void rk4(const double *restrict k, const double *restrict y0,
                double *restrict y, int steps, double h) {
  double a[4], k1[4], k2[4], k3[4], k4[4];
  for (int i = 0; i < 4; i++)
    y[i] = y0[i];
  for (int s = 0; s < steps; s++) {
    mm_rhs(k, y, k1);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + 0.5 * h * k1[i];
    mm_rhs(k, a, k2);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + 0.5 * h * k2[i];
    mm_rhs(k, a, k3);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + h * k3[i];
    mm_rhs(k, a, k4);
    for (int i = 0; i < 4; i++)
      y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

#endif /* ADCC_BENCH_KERNELS_H */
