// A function that reads its result from a table at an index computed from
// a floating-point value with a derivative (genann's cached sigmoid,
// scripts/realcode/genann.sh) is a step function: its derivative is 0,
// in both modes, as Enzyme gives, and as central differences within one
// entry of the table see. adcc says so once, at the conversion, when the
// entry read is the function's result or is stored where derivatives are
// kept, at every level (at -O0 through the locals that hold the index and
// the result). A table that only gives coefficients of a value with a
// derivative (a linear interpolation) keeps its derivative, and no
// warning; nor does a rounding that indexes nothing.
// RUN: %adcc -O0 %s -o %t0 -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t2 -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O1 %s -o %t1 -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t1 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O3 %s -o %t3 -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t3 | FileCheck %s --check-prefix=OUT
// CHECK-DAG: table-lookups.c:[[@LINE+28]]:11: warning: the derivative through this conversion to an integer is 0: it indexes a table of floating-point values, and what is read there has no derivative (a step function of the converted value); give the function a custom derivative
// CHECK-DAG: table-lookups.c:[[@LINE+36]]:18: warning: the derivative through this conversion to an integer is 0
// OUT-DAG: cached ok
// OUT-DAG: stored ok
// OUT-DAG: interpolated ok
// OUT-DAG: rounded ok
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff_v(void *, ...) __asm__("__enzyme_autodiff");

#define N 256
static double table[N + 1];
static const double lo = -8, hi = 8;

static void fill(void) {
  for (int i = 0; i <= N; ++i)
    table[i] = tanh(lo + (hi - lo) * i / N);
}

__attribute__((noinline)) double cached(double a) {
  if (a < lo)
    return table[0];
  if (a >= hi)
    return table[N];
  int j = (int)((a - lo) * (N / (hi - lo)) + 0.5);
  return table[j];
}

double cached_sum(const double *x) { return cached(x[0]) + 3 * cached(x[1]); }

// Entries stored into memory with derivatives.
void stored(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = table[(int)(x[i] * 4 + 128)];
}

// A linear interpolation in the same table: the derivative of the segment.
double interpolated(double a) {
  double u = (a - lo) * (N / (hi - lo));
  int j = (int)u;
  double w = u - j;
  return (1 - w) * table[j] + w * table[j + 1];
}

// A rounding that indexes no table.
double rounded(double a) { return a * (double)(long)(a * 10) / 10; }

static int close_to(double got, double want) {
  return fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

int main(void) {
  fill();
  double x[2] = {0.3, -1.7}, dx[2] = {0, 0}, tx[2] = {1, 1};
  __enzyme_autodiff_v((void *)cached_sum, enzyme_dup, x, dx);
  double t = __enzyme_fwddiff((void *)cached_sum, enzyme_dup, x, tx);
  // Within one entry (16 / 256 wide) the function is constant.
  double h = 1e-7, d0 = (cached(x[0] + h) - cached(x[0] - h)) / (2 * h);
  if (dx[0] == 0 && dx[1] == 0 && t == 0 && d0 == 0)
    printf("cached ok\n");
  else
    printf("cached %g %g %g %g\n", dx[0], dx[1], t, d0);

  double y[3], dy[3] = {1, 1, 1}, xs[3] = {0.1, 0.9, -2}, dxs[3] = {0, 0, 0};
  __enzyme_autodiff_v((void *)stored, enzyme_dup, xs, dxs, enzyme_dup, y, dy,
                      enzyme_const, 3);
  if (dxs[0] == 0 && dxs[1] == 0 && dxs[2] == 0)
    printf("stored ok\n");
  else
    printf("stored %g %g %g\n", dxs[0], dxs[1], dxs[2]);

  double a = 0.37, step = (hi - lo) / N;
  int j = (int)((a - lo) / step);
  double slope = (table[j + 1] - table[j]) / step;
  double r = __enzyme_autodiff((void *)interpolated, a);
  double f = __enzyme_fwddiff((void *)interpolated, a, 1.0);
  double d = (interpolated(a + h) - interpolated(a - h)) / (2 * h);
  if (close_to(r, slope) && close_to(f, slope) && fabs(d - slope) < 1e-6)
    printf("interpolated ok\n");
  else
    printf("interpolated %g %g %g, expected %g\n", r, f, d, slope);

  double q = __enzyme_autodiff((void *)rounded, 1.234);
  double qf = __enzyme_fwddiff((void *)rounded, 1.234, 1.0);
  if (close_to(q, 1.2) && close_to(qf, 1.2))
    printf("rounded ok\n");
  else
    printf("rounded %g %g\n", q, qf);
  return 0;
}
