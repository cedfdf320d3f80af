/* Reverse mode and memory lifetimes: heap memory freed before the function
 * returns and its block reused by a second allocation filled with other
 * values (the reverse sweep must not read it again), and a stack array
 * whose slot a later scope reuses (stack colouring at -O2). */
#include "rev_check.h"
static double freereuse(const double *x, int n) {
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i] * x[i];
  free(a);
  double *b = malloc(n * sizeof(double)); /* likely the same block */
  for (int i = 0; i < n; ++i)
    b[i] = 1e3 + i;
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += b[i];
  free(b);
  return s + t * 1e-9;
}
__attribute__((noinline)) static double scope1(const double *x) {
  double s = 0;
  {
    double a[64];
    for (int i = 0; i < 64; ++i)
      a[i] = x[i % 4] * (i + 1);
    for (int i = 0; i < 64; ++i)
      s += a[i] * a[(i + 1) % 64];
  }
  {
    volatile double b[64];
    for (int i = 0; i < 64; ++i)
      b[i] = 7.0;
    s += b[3] * 0;
  }
  return s;
}
static double scope1_arr(const double *x) { return scope1(x); }
int main(void) {
  double x[8] = {0.1, 0.5, -0.3, 0.9, 1.2, -0.7, 0.4, 0.2}, dx[8] = {0}, e[8];
  __enzyme_autodiff((void *)freereuse, x, dx, 8);
  for (int i = 0; i < 8; ++i)
    e[i] = 2 * sin(x[i]) * cos(x[i]) * x[i] + sin(x[i]) * sin(x[i]);
  for (int i = 0; i < 8; ++i)
    CHECK_CLOSE(dx[i], e[i], 1e-14);
  double dy[4] = {0};
  __enzyme_autodiff((void *)scope1, x, dy);
  CHECK_GRAD(scope1_arr, x, 4, dy, NULL);
  double v[8];
  rev_dir(dx, v, 8);
  CHECK_DOT(dx, v, 8, __enzyme_fwddiff((void *)freereuse, x, v, 8));
  rev_dir(dy, v, 4);
  CHECK_DOT(dy, v, 4, __enzyme_fwddiff((void *)scope1, x, v));
  return check_finish();
}
