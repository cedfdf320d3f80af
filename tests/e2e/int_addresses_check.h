// The check of the int_addresses tests (after check.h and the file's
// `enum { N = 3 }`): the gradient of f at int_addresses_x0 by reverse
// mode, against central differences, against forward mode one direction
// at a time and, where \p want is not null, against the exact values.
#ifndef ADCC_E2E_INT_ADDRESSES_CHECK_H
#define ADCC_E2E_INT_ADDRESSES_CHECK_H

static const double int_addresses_x0[N] = {0.4, 0.75, 1.1};

typedef double (*int_addresses_fn)(double *);

static void check_gradient(int_addresses_fn f, const char *name,
                           const double *want) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = int_addresses_x0[i];
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  for (int i = 0; i < N; ++i) {
    double xp[N], xm[N], dx[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x[j] = int_addresses_x0[j];
    xp[i] += h;
    xm[i] -= h;
    double fd = (f(xp) - f(xm)) / (2 * h);
    dx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);
    printf("%s d/dx%d: reverse %.10g forward %.10g differences %.10g\n", name,
           i, g[i], t, fd);
    CHECK_CLOSE(g[i], fd, 1e-6);
    CHECK_CLOSE(t, g[i], 1e-12);
    if (want)
      CHECK_CLOSE(g[i], want[i], 1e-12);
  }
}

#endif
