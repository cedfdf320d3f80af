// Across translation units: the attribute in a shared header declares the
// derivative everywhere; the file that defines the primal generates it.
// Another file may instead declare the derivative (and its result struct)
// by hand. C and C++, compiled separately and together.
// RUN: rm -rf %t && split-file %s %t
// RUN: %adcc -O1 -c %t/f.c -o %t/f.o
// RUN: %adcc -O1 -c %t/main.c -o %t/main.o
// RUN: %adcc -O1 -c %t/manual.c -o %t/manual.o
// RUN: %adcc %t/f.o %t/main.o %t/manual.o -o %t/p && %t/p | FileCheck %s
// RUN: %adcc -O0 %t/f.c %t/main.c %t/manual.c -o %t/q && %t/q | FileCheck %s
// RUN: %adcc++ -O2 -x c++ %t/f.c %t/main.c %t/manual.c -o %t/r && %t/r | FileCheck %s
// CHECK: f 14 d_f 12 manual 12
// CHECK: batch 14 6 12

//--- f.h
#include <adcc.h>
#ifdef __cplusplus
extern "C" {
#endif
ADCC_FORWARD(d_f, Dual, Const, Dual) double f(const double *x, int n);
ADCC_FORWARD_BATCH(d_fb, 2, Dual, Const, Dual) double fb(const double *x, int n);
#ifdef __cplusplus
}
#endif
double manual(void);

//--- f.c
#include "f.h"
/* Sum of squares: df = 2 * sum(x[i] * dx[i]). */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
double fb(const double *x, int n) { return f(x, n); }

//--- main.c
#include <stdio.h>
#include "f.h"
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 2}, dx2[3] = {1, 1, 0};
  struct __adcc_d_f_result r = d_f(x, dx, 3);
  printf("f %g d_f %g manual %g\n", r.primal, r.d_return, manual());
  struct __adcc_d_fb_result b = d_fb(x, dx2, dx, 3);
  printf("batch %g %g %g\n", b.primal, b.d_return[0], b.d_return[1]);
  return 0;
}

//--- manual.c
/* No <adcc.h>, no attribute: the prototype the attribute would declare. */
#ifdef __cplusplus
extern "C" {
#endif
struct __adcc_d_f_result { double primal; double d_return; };
struct __adcc_d_f_result d_f(const double *x, double *d_x, int n);
#ifdef __cplusplus
}
#endif
double manual(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 2};
  return d_f(x, dx, 3).d_return;
}
