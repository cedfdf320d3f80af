// Hessian-vector products: forward mode over a function that calls reverse
// mode. Each tape record of the reverse sweep gets a shadow record.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 %s -o %t/p0 -lm && %t/p0 | FileCheck %s
// RUN: %adcc -O2 %s -o %t/p2 -lm && %t/p2 | FileCheck %s
// RUN: %adcc -O3 %s -o %t/p3 -lm && %t/p3 | FileCheck %s
// CHECK: hvp ok
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(const double *x) {
  return x[0] * x[0] * x[1] + sin(x[1]) * x[2] + exp(x[0] * x[2]);
}
void grad(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}

int main(void) {
  double x[3] = {0.5, 1.5, -0.7}, v[3] = {1, 2, 3}, g[3] = {0}, hv[3] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv);
  double e = exp(x[0] * x[2]);
  double H[3][3] = {{2 * x[1] + x[2] * x[2] * e, 2 * x[0], e + x[0] * x[2] * e},
                    {2 * x[0], -sin(x[1]) * x[2], cos(x[1])},
                    {e + x[0] * x[2] * e, cos(x[1]), x[0] * x[0] * e}};
  int bad = 0;
  for (int i = 0; i < 3; ++i) {
    double want = 0;
    for (int j = 0; j < 3; ++j)
      want += H[i][j] * v[j];
    if (fabs(hv[i] - want) > 1e-10 * fmax(1, fabs(want))) {
      printf("hv[%d] = %.17g, expected %.17g\n", i, hv[i], want);
      bad = 1;
    }
  }
  printf("hvp %s\n", bad ? "WRONG" : "ok");
  return bad;
}
