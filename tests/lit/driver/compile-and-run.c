// Compile and link in one call, at every optimization level, and run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 -g %s -o %t/p0 -lm && %t/p0 | FileCheck %s
// RUN: %adcc -O1 %s -o %t/p1 -lm && %t/p1 | FileCheck %s
// RUN: %adcc -O2 %s -o %t/p2 -lm && %t/p2 | FileCheck %s
// RUN: %adcc -O3 %s -o %t/p3 -lm && %t/p3 | FileCheck %s
// RUN: %adcc -Os %s -o %t/ps -lm && %t/ps | FileCheck %s
// RUN: %adcc -Oz -fPIC %s -o %t/pz -lm && %t/pz | FileCheck %s
// CHECK: norm 5.000000 sqrt2 1.414214
#include <math.h>
#include <stdio.h>

static double norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return sqrt(s);
}

int main(void) {
  double x[2] = {3, 4};
  printf("norm %f sqrt2 %f\n", norm(x, 2), sqrt(2.0));
  return 0;
}
