/* Quickstart: the Rosenbrock function and its gradient.
 *
 *   f(x) = sum_{i<n-1} 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
 *
 * This version of adcc compiles and links the program like clang (with the
 * tape runtime and <adcc.h>); the analytic gradient is checked against
 * central finite differences. Automatic differentiation of f with
 * __enzyme_autodiff / ADCC_REVERSE replaces the hand-written gradient once
 * reverse mode lands (see docs/status.md). */
#include <adcc.h>
#include <math.h>
#include <stdio.h>

#define N 4

static double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

static void rosenbrock_gradient(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    g[i] += -400 * a * x[i] - 2 * (1 - x[i]);
    g[i + 1] += 200 * a;
  }
}

int main(void) {
  double x[N] = {-1.2, 1.0, 0.5, 2.0}, g[N];
  rosenbrock_gradient(x, g, N);
  printf("adcc %d.%d.%d quickstart: f(x) = %.10g\n", ADCC_VERSION_MAJOR,
         ADCC_VERSION_MINOR, ADCC_VERSION_PATCH, rosenbrock(x, N));

  int failures = 0;
  for (int i = 0; i < N; ++i) {
    double h = 1e-6 * fmax(1.0, fabs(x[i])), saved = x[i];
    x[i] = saved + h;
    double up = rosenbrock(x, N);
    x[i] = saved - h;
    double down = rosenbrock(x, N);
    x[i] = saved;
    double fd = (up - down) / (2 * h);
    int ok = fabs(fd - g[i]) <= 1e-6 * fmax(1.0, fabs(g[i]));
    failures += !ok;
    printf("  df/dx[%d] = %14.8f   central difference %14.8f   %s\n", i, g[i],
           fd, ok ? "ok" : "MISMATCH");
  }
  return failures != 0;
}
