/* Second derivatives by reverse over forward: a function that calls
 * __enzyme_fwddiff is differentiated by __enzyme_autodiff; and
 * Hessian-vector products by forward over reverse through duplicated
 * memory (the tangent of the gradient shadow is H v).  f'' of a scalar
 * function, the Hessian of a two-argument function from two directional
 * derivatives, and Hessian-vector products H v = grad <grad h, v> for a
 * function of an array (v const), against closed forms and central
 * differences.  (Forward over reverse with active scalars:
 * rev_hvp_fwdrev.c.) */
#include "rev_check.h"

static double f(double x) { return sin(x) * x * x * x; }
static double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
static double f_d2(double x) {
  return -sin(x) * x * x * x + 6 * x * x * cos(x) + 6 * x * sin(x);
}

static double g(double x, double y) { return exp(x * y) + x * x * y * y * y; }
static double gx(double x, double y) {
  return __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0);
}
static double gy(double x, double y) {
  return __enzyme_fwddiff((void *)g, x, 0.0, y, 1.0);
}

#define N 4
static double h(const double *p) {
  double s = log(1 + p[0] * p[0]);
  for (int i = 0; i + 1 < N; ++i)
    s += p[i] * p[i] * p[i + 1];
  return s;
}
static double hdir(const double *p, const double *v) {
  return __enzyme_fwddiff((void *)h, p, v);
}
static void hess_h(const double *p, double H[N][N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      H[i][j] = 0;
  double a = p[0] * p[0];
  H[0][0] = (2 * (1 + a) - 4 * a) / ((1 + a) * (1 + a));
  for (int i = 0; i + 1 < N; ++i) {
    H[i][i] += 2 * p[i + 1];
    H[i][i + 1] += 2 * p[i];
    H[i + 1][i] += 2 * p[i];
  }
}
static double g_v[N];
void __enzyme_fwddiff_void(void *, ...);
static void grad_h(const double *p, double *gr) {
  for (int i = 0; i < N; ++i)
    gr[i] = 0;
  __enzyme_autodiff((void *)h, p, gr);
}
static double hdir_arr(const double *p) { return hdir(p, g_v); }

/* a heavier one: Rosenbrock, through a loop with memory */
static double rosen(const double *x) {
  double s = 0;
  for (int i = 0; i + 1 < N; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}
static double rosen_dir(const double *x, const double *v) {
  return __enzyme_fwddiff((void *)rosen, x, v);
}
static double rosen_dir_arr(const double *x) { return rosen_dir(x, g_v); }

int main(void) {
  {
    double xs[3] = {-0.8, 0.4, 2.1};
    for (int i = 0; i < 3; ++i) {
      double x[1] = {xs[i]}, e[1] = {f_d2(xs[i])};
      double d2[1] = {__enzyme_autodiff((void *)df, x[0])};
      CHECK_CLOSE(d2[0], e[0], REV_TOL_EXACT);
      CHECK_CLOSE(d2[0], fd_central(df, x[0]), FWD_TOL_FD);
    }
  }
  {
    double x = 0.7, y = -0.4, e = exp(x * y);
    double hxx = y * y * e + 2 * y * y * y, hxy = e + x * y * e + 6 * x * y * y,
           hyy = x * x * e + 6 * x * x * y;
    rev_two a = __enzyme_autodiff2((void *)gx, x, y);
    rev_two b = __enzyme_autodiff2((void *)gy, x, y);
    CHECK_CLOSE(a.a, hxx, REV_TOL_EXACT);
    CHECK_CLOSE(a.b, hxy, REV_TOL_EXACT);
    CHECK_CLOSE(b.a, hxy, REV_TOL_EXACT);
    CHECK_CLOSE(b.b, hyy, REV_TOL_EXACT);
  }
  {
    double p[N] = {0.3, -0.7, 1.1, 0.5}, v[N] = {1.0, 0.5, -2.0, 0.25};
    double hv[N] = {0}, H[N][N], e[N];
    memcpy(g_v, v, sizeof v);
    __enzyme_autodiff((void *)hdir, p, hv, enzyme_const, v);
    hess_h(p, H);
    for (int i = 0; i < N; ++i) {
      e[i] = 0;
      for (int j = 0; j < N; ++j)
        e[i] += H[i][j] * v[j];
    }
    CHECK_GRAD(hdir_arr, p, N, hv, e);
    /* forward over reverse */
    double gr[N], hv2[N] = {0}, g2[N] = {0};
    __enzyme_fwddiff_void((void *)grad_h, p, v, gr, hv2);
    __enzyme_autodiff((void *)h, p, g2);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(hv2[i], e[i], REV_TOL_EXACT);
      CHECK_CLOSE(gr[i], g2[i], REV_TOL_EXACT);
    }
  }
  {
    double x[N] = {-1.2, 1.0, 0.5, 2.0}, hv[N] = {0};
    for (int i = 0; i < N; ++i)
      g_v[i] = rev_rand();
    __enzyme_autodiff((void *)rosen_dir, x, hv, enzyme_const, g_v);
    CHECK_GRAD_TOL(rosen_dir_arr, x, N, hv, NULL, 1e-5);
    /* H is symmetric: <H v, w> == <v, H w> */
    double w[N], hw[N] = {0}, vhw = 0, whv = 0;
    for (int i = 0; i < N; ++i)
      w[i] = rev_rand();
    __enzyme_autodiff((void *)rosen_dir, x, hw, enzyme_const, w);
    for (int i = 0; i < N; ++i) {
      vhw += g_v[i] * hw[i];
      whv += w[i] * hv[i];
    }
    CHECK_CLOSE(vhw, whv, 1e-10);
  }
  return check_finish();
}
