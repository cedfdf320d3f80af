/* Quickstart: the gradient of the Rosenbrock function by automatic
 * differentiation, checked against central finite differences.
 *
 *   f(x) = sum_{i<n-1} 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
 *
 * The gradient comes from forward mode with width N: one call carries N
 * tangent directions (the unit vectors), so it returns all N partial
 * derivatives at once. The call is the Enzyme-compatible spelling; the
 * same source compiles with clang and Enzyme's plugin.
 *
 *   adcc -O2 rosenbrock.c -o rosenbrock -lm && ./rosenbrock
 */
#include <math.h>
#include <stdio.h>

#define N 4

extern int enzyme_width, enzyme_dup, enzyme_const;
typedef struct {
  double d[N];
} gradient_t;
gradient_t __enzyme_fwddiff(void *, ...);

static double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

int main(void) {
  double x[N] = {-1.2, 1.0, 0.5, 2.0};
  double seeds[N][N] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  gradient_t g = __enzyme_fwddiff((void *)rosenbrock, enzyme_width, N,
                                  enzyme_dup, x, seeds[0], seeds[1], seeds[2],
                                  seeds[3], enzyme_const, N);

  printf("f(x) = %.10g\n", rosenbrock(x, N));
  int failures = 0;
  for (int i = 0; i < N; ++i) {
    double h = 1e-6 * fmax(1.0, fabs(x[i])), saved = x[i];
    x[i] = saved + h;
    double up = rosenbrock(x, N);
    x[i] = saved - h;
    double down = rosenbrock(x, N);
    x[i] = saved;
    double fd = (up - down) / (2 * h);
    int ok = fabs(fd - g.d[i]) <= 1e-6 * fmax(1.0, fabs(g.d[i]));
    failures += !ok;
    printf("  df/dx[%d] = %14.8f   central difference %14.8f   %s\n", i,
           g.d[i], fd, ok ? "ok" : "MISMATCH");
  }
  printf("%s\n", failures ? "gradient MISMATCH" : "gradient ok");
  return failures != 0;
}
