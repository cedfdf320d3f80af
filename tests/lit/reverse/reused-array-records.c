// A value recorded once per run of an inner loop that an earlier loop of
// the same iteration recorded already in its array (same address, nothing
// written in between) is read from that array's row instead
// (adcore/lib/reverse/ReusedRecords.cpp): GMM's xc[c] at the start of each
// column of the triangle, recorded as xc[j] by the loop before it.
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 %s -o %t -lm && %t
// RUN: %adcc -O0 %s -o %t0 -lm && %t0
// RUN: %adcc -O3 %s -o %t3 -lm && %t3
// RUN: %adcc -O2 -mllvm -adcc-reuse-array-records=false %s -o %t.off -lm && %t.off
//
// CHECK-LABEL: reverse mode of 'tri_reused'
// CHECK: read double %{{[0-9]+}} once per run of the loop at block %{{[0-9]+}} from the record of %{{[0-9]+}} in the array of the loop at block %{{[0-9]+}} (row: the iteration of the loop at block %{{[0-9]+}}) (each loop iteration)
// CHECK-NOT: record double %{{[0-9]+}} once per run of the loop
// CHECK-LABEL: reverse mode of 'tri_written'
// tri_written writes xc[c] in the column loop: the column's value is not
// the one the earlier loop recorded, and is recorded.
// CHECK: record double %{{[0-9]+}} once per run of the loop at block %{{[0-9]+}}, at its exit (each loop iteration)
// CHECK-NOT: from the record of
// CHECK-LABEL: reverse mode of 'tri_longer'
// tri_longer's columns run past the earlier loop's rows (c < d + 1 against
// j < d): recorded.
// CHECK: record double %{{[0-9]+}} once per run of the loop at block %{{[0-9]+}}, at its exit (each loop iteration)
// CHECK-NOT: from the record of
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define D 5
#define N 2

__attribute__((noinline)) double tri_reused(const double *x, const double *mu,
                                            const double *l, int n, int d) {
  double *xc = malloc(d * sizeof(double)), *q = malloc(d * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++)
      xc[j] = x[i * d + j] - mu[j];
    for (int j = 0; j < d; j++)
      q[j] = exp(mu[j]) * xc[j];
    int li = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++)
        q[r] += l[li++] * xc[c];
    for (int j = 0; j < d; j++)
      s += q[j] * q[j];
  }
  free(xc);
  free(q);
  return s;
}

__attribute__((noinline)) double tri_written(const double *x, const double *mu,
                                             const double *l, int n, int d) {
  double *xc = malloc(d * sizeof(double)), *q = malloc(d * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++)
      xc[j] = x[i * d + j] - mu[j];
    for (int j = 0; j < d; j++)
      q[j] = exp(mu[j]) * xc[j];
    int li = 0;
    for (int c = 0; c < d; c++) {
      for (int r = c + 1; r < d; r++)
        q[r] += l[li++] * xc[c];
      xc[c] = xc[c] * 0.5; // read again by s below
    }
    for (int j = 0; j < d; j++)
      s += q[j] * q[j] + xc[j] * q[j];
  }
  free(xc);
  free(q);
  return s;
}

__attribute__((noinline)) double tri_longer(const double *x, const double *mu,
                                            const double *l, int n, int d) {
  double *xc = calloc(d + 1, sizeof(double)), *q = malloc(d * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    xc[d] = mu[0] * x[i * d];
    for (int j = 0; j < d; j++)
      xc[j] = x[i * d + j] - mu[j];
    for (int j = 0; j < d; j++)
      q[j] = exp(mu[j]) * xc[j];
    int li = 0;
    for (int c = 0; c < d + 1; c++)
      for (int r = c + 1; r < d; r++)
        q[r] += l[li++] * xc[c];
    for (int j = 0; j < d; j++)
      s += q[j] * q[j];
  }
  free(xc);
  free(q);
  return s;
}

typedef double (*Fn)(const double *, const double *, const double *, int, int);

// The gradient in mu and l against central differences.
static int check(const char *Name, Fn F) {
  double x[N * D], mu[D], l[D * D], dmu[D] = {0}, dl[D * D] = {0};
  for (int k = 0; k < N * D; k++)
    x[k] = 0.3 + 0.1 * k - 0.02 * k * k;
  for (int k = 0; k < D; k++)
    mu[k] = 0.2 - 0.15 * k;
  for (int k = 0; k < D * D; k++)
    l[k] = 0.5 - 0.07 * k;
  __enzyme_autodiff((void *)F, enzyme_const, x, enzyme_dup, mu, dmu,
                    enzyme_dup, l, dl, enzyme_const, N, enzyme_const, D);
  int Bad = 0, Checked = 0;
  for (int k = 0; k < D + D * (D - 1) / 2; k++) {
    double *p = k < D ? &mu[k] : &l[k - D];
    double g = k < D ? dmu[k] : dl[k - D], h = 1e-6, v = *p;
    *p = v + h;
    double up = F(x, mu, l, N, D);
    *p = v - h;
    double down = F(x, mu, l, N, D);
    *p = v;
    double fd = (up - down) / (2 * h);
    ++Checked;
    if (fabs(g - fd) > 1e-6 * (1 + fabs(fd))) {
      printf("%s: d/dp[%d] = %.12g, differences %.12g\n", Name, k, g, fd);
      Bad = 1;
    }
  }
  printf("%s: %d derivatives checked\n", Name, Checked);
  return Bad;
}

int main(void) {
  int Bad = check("tri_reused", tri_reused);
  Bad |= check("tri_written", tri_written);
  Bad |= check("tri_longer", tri_longer);
  return Bad;
}
