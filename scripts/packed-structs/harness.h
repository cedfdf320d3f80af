/* The check every generated probe includes (-include): gradient by reverse
 * mode and derivatives by forward mode of f at one point against central
 * differences; "ok" or a FAIL line per derivative. */
#include <math.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#ifdef __cplusplus
}
#endif
double f(const double *x);
int main(void) {
  double x[3] = {0.5, 1.25, -2.5}, g[3] = {0, 0, 0};
  int bad = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  for (int i = 0; i < 3; ++i) {
    double h = 1e-3, xp[3], xm[3], e[3] = {0, 0, 0};
    for (int j = 0; j < 3; ++j)
      xp[j] = xm[j] = x[j];
    xp[i] += h;
    xm[i] -= h;
    e[i] = 1;
    double fd = (f(xp) - f(xm)) / (2 * h);
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e);
    double s = fabs(fd) > 1 ? fabs(fd) : 1;
    if (!(fabs(g[i] - fd) <= 1e-3 * s)) {
      printf("FAIL reverse d/dx%d = %.9g, central %.9g\n", i, g[i], fd);
      bad = 1;
    }
    if (!(fabs(t - fd) <= 1e-3 * s)) {
      printf("FAIL forward d/dx%d = %.9g, central %.9g\n", i, t, fd);
      bad = 1;
    }
  }
  if (!bad)
    printf("ok\n");
  return bad;
}
