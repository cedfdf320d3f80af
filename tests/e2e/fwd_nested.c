/* Higher derivatives by nesting __enzyme_fwddiff: a function that calls
 * __enzyme_fwddiff is itself differentiated.  Second and third derivatives
 * of sin(x) x^3, a mixed partial, forward over a batched (width 2) request,
 * heap memory in the inner function, and Hessian-vector products of a
 * function of an array (forward over forward through duplicated pointers). */
#include "fwd_check.h"

static double f(double x) { return sin(x) * x * x * x; }
static double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
static double d2f(double x) { return __enzyme_fwddiff((void *)df, x, 1.0); }
static double d3f(double x) { return __enzyme_fwddiff((void *)d2f, x, 1.0); }

static double f_d1(double x) {
  return cos(x) * x * x * x + 3 * x * x * sin(x);
}
static double f_d2(double x) {
  return -sin(x) * x * x * x + 6 * x * x * cos(x) + 6 * x * sin(x);
}
static double f_d3(double x) {
  return -cos(x) * x * x * x - 9 * x * x * sin(x) + 18 * x * cos(x) +
         6 * sin(x);
}

/* mixed partial d2/dxdy of g(x, y) = exp(x y) + x^2 y^3 */
static double g(double x, double y) { return exp(x * y) + x * x * y * y * y; }
static double gx(double x, double y) {
  return __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0);
}
static double g_y0;
static double gx_line(double t) { return gx(t, g_y0); }

/* h(p) = sum p_i^2 p_{i+1} + log(1 + p_0^2); Hessian-vector product:
 * directional derivative along v, differentiated along w */
#define N 4
static double h(const double *p) {
  double s = log(1 + p[0] * p[0]);
  for (int i = 0; i + 1 < N; ++i)
    s += p[i] * p[i] * p[i + 1];
  return s;
}
static double hv(const double *p, const double *v) {
  /* v is only read here: the inner call does not write its shadow */
  return __enzyme_fwddiff((void *)h, p, v);
}
static double g_p[N], g_v[N], g_w[N];
static double hv_line(double t) {
  double p[N];
  for (int i = 0; i < N; ++i)
    p[i] = g_p[i] + t * g_w[i];
  return hv(p, g_v);
}

/* nesting through a noinline wrapper with a loop: d2/dx2 of x^k by the
 * recursion-free product, k from an int argument */
__attribute__((noinline)) double powk(double x, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i)
    r *= x;
  return r;
}
static double dpowk(double x, int k) {
  return __enzyme_fwddiff((void *)powk, x, 1.0, k);
}

/* the inner request is batched (width 2: both partials), the outer not */
typedef struct {
  double d[2];
} d2;
d2 __enzyme_fwddiff_w2(void *, ...);
static double q(double x, double y) { return sin(x) * y * y * x; }
static double grad_dot(double x, double y) {
  d2 g = __enzyme_fwddiff_w2((void *)q, enzyme_width, 2, x, 1.0, 0.0, y, 0.0,
                             1.0);
  return g.d[0] + 3 * g.d[1];
}
static double g_gy;
static double grad_dot_line(double t) { return grad_dot(t, g_gy); }

/* heap memory inside the inner function */
static double heapy(double x) {
  double *a = (double *)malloc(4 * sizeof *a);
  for (int i = 0; i < 4; ++i)
    a[i] = pow(x, i + 1);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += a[i];
  free(a);
  return s;
}
static double dheapy(double x) {
  return __enzyme_fwddiff((void *)heapy, x, 1.0);
}

int main(void) {
  double xs[] = {-1.7, -0.3, 0.5, 1.2, 2.9};
  for (int i = 0; i < 5; ++i) {
    double x = xs[i];
    CHECK_TANGENT(df(x), f_d1(x), f, x);
    CHECK_TANGENT(d2f(x), f_d2(x), df, x);
    CHECK_TANGENT(d3f(x), f_d3(x), d2f, x);
    CHECK_CLOSE(d2f(x), (f_d1(x + 1e-5) - f_d1(x - 1e-5)) / 2e-5, 1e-6);
    CHECK_CLOSE(__enzyme_fwddiff((void *)dpowk, x, 1.0, 5), 20 * x * x * x,
                FWD_TOL_EXACT);
  }
  /* d2g/dxdy = exp(xy)(1 + xy) + 6 x y^2 */
  {
    double x = 0.7, y = g_y0 = -0.4;
    double gxy = __enzyme_fwddiff((void *)gx, x, 0.0, y, 1.0);
    CHECK_CLOSE(gxy, exp(x * y) * (1 + x * y) + 6 * x * y * y, FWD_TOL_EXACT);
    double gxx = __enzyme_fwddiff((void *)gx, x, 1.0, y, 0.0);
    CHECK_TANGENT(gxx, y * y * exp(x * y) + 2 * y * y * y, gx_line, x);
  }
  /* d/dx (q_x + 3 q_y) */
  {
    double x = 0.7, y = g_gy = 1.3;
    double want = y * y * (-sin(x) * x + 2 * cos(x)) +
                  6 * y * (cos(x) * x + sin(x));
    CHECK_TANGENT(__enzyme_fwddiff((void *)grad_dot, x, 1.0, y, 0.0), want,
                  grad_dot_line, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)dheapy, x, 1.0),
                  2 + 6 * x + 12 * x * x, dheapy, x);
  }
  /* Hessian-vector products: w^T H v, all directions e_i, e_j */
  {
    double p[N] = {0.3, -0.8, 1.1, 0.6};
    for (int i = 0; i < N; ++i)
      g_p[i] = p[i];
    for (int a = 0; a < N; ++a)
      for (int b = 0; b < N; ++b) {
        double v[N] = {0}, w[N] = {0}, dv[N] = {0};
        v[a] = 1;
        w[b] = 1;
        for (int i = 0; i < N; ++i) {
          g_v[i] = v[i];
          g_w[i] = w[i];
        }
        /* H of h: d2/dp_i^2 = 2 p_{i+1}; d2/dp_i dp_{i+1} = 2 p_i;
         * plus the log term in (0, 0) */
        double want = 0;
        if (a == b && a + 1 < N)
          want += 2 * p[a + 1];
        if (b == a + 1)
          want += 2 * p[a];
        if (a == b + 1)
          want += 2 * p[b];
        if (a == 0 && b == 0)
          want += (2 - 2 * p[0] * p[0]) /
                  ((1 + p[0] * p[0]) * (1 + p[0] * p[0]));
        CHECK_TANGENT(__enzyme_fwddiff((void *)hv, p, w, v, dv), want,
                      hv_line, 0.0);
      }
  }
  return check_finish();
}
