/* Reverse mode through variable-length arrays: a VLA sized by an argument,
 * and VLAs allocated in each iteration of a loop (with the stack saved and
 * restored around them). Their shadows live on the tape, sized at run time
 * (the element count is recorded for the release). Central differences and
 * forward mode (dot-product test). */
#include "rev_check.h"

#define N 5

int rev_vla_n = N;

static double vla(const double *x) {
  int n = rev_vla_n;
  double a[n];
  for (int i = 0; i < n; i++)
    a[i] = sin(x[i]) * x[i];
  double s = 0;
  for (int k = 1; k <= 3; k++) {
    double b[k * n];
    for (int i = 0; i < k * n; i++)
      b[i] = a[i % n] * k + x[(i + 1) % n];
    for (int i = 0; i < k * n; i++)
      s += b[i] * b[i];
  }
  return s;
}

int main(void) {
  double x[N], g[N] = {0}, v[N], dv[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.5 * rev_rand();
  __enzyme_autodiff((void *)vla, x, g);
  printf("vla: d/dx0 = %.12g\n", g[0]);
  CHECK_GRAD(vla, x, N, g, NULL);
  rev_dir(g, v, N);
  for (int i = 0; i < N; ++i)
    dv[i] = v[i];
  CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)vla, x, dv));
  return check_finish();
}
