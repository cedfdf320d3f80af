/* Hessian-vector products by forward over reverse: a function that calls
 * __enzyme_autodiff is itself differentiated by __enzyme_fwddiff.  Second
 * derivative of a scalar function (active argument and returned adjoint),
 * the Hessian of a two-argument function column by column, and H v for a
 * function of an array (duplicated pointers: the tangent of the gradient
 * shadow is H v), against closed forms and central differences of the
 * gradient, also through copies of arrays of doubles and of structs; and
 * an inner request whose constant argument is a local closure holding a
 * pointer to constant data with doubles in it (the closure looked active
 * to the outer forward mode, which gave the pointer a null shadow and
 * crashed). (Reverse over forward: rev_hvp.c.) */
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

static double f(double x) { return sin(x) * x * x * x; }
static double df(double x) { return __enzyme_autodiff((void *)f, x); }
static double f_d2(double x) {
  return -sin(x) * x * x * x + 6 * x * x * cos(x) + 6 * x * sin(x);
}

/* g(x, y) = exp(x y) + x^2 y^3; gradient as a struct */
static double g(double x, double y) { return exp(x * y) + x * x * y * y * y; }
static double gx(double x, double y) {
  return __enzyme_autodiff((void *)g, x, enzyme_const, y);
}
static double gy(double x, double y) {
  return __enzyme_autodiff((void *)g, enzyme_const, x, y);
}

/* h(p) = sum p_i^2 p_{i+1} + log(1 + p_0^2) + prod-like loop */
#define N 4
static double h(const double *p) {
  double s = log(1 + p[0] * p[0]);
  for (int i = 0; i + 1 < N; ++i)
    s += p[i] * p[i] * p[i + 1];
  return s;
}
static void grad_h(const double *p, double *gr) {
  for (int i = 0; i < N; ++i)
    gr[i] = 0;
  __enzyme_autodiff((void *)h, p, gr);
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

/* The same through a copy of the input into a local array: the reverse
 * sweep gives the copy's adjoint back with adcc_adjoint_copy_f64, which
 * forward mode differentiates as the linear map it is. */
static double hc(const double *p) {
  double t[N];
  memcpy(t, p, sizeof t);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += t[i] * t[i] * t[(i + 1) % N];
  return s;
}
static void grad_hc(const double *p, double *gr) {
  for (int i = 0; i < N; ++i)
    gr[i] = 0;
  __enzyme_autodiff((void *)hc, p, gr);
}

/* The same through a copy of an array of structs that mix doubles and an
 * int, whose length the compiler cannot see: one strided adjoint copy
 * per double field (adcc_adjoint_copy_strided_f64), differentiated by
 * forward mode the same way. s = sum_i p_i p_{i+1} sin(p_i). */
struct tagged {
  double x;
  int tag;
  double y;
};
int hs_count = N;
static double hs(const double *p) {
  struct tagged a[N], b[N];
  int n = hs_count;
  for (int i = 0; i < n; ++i) {
    a[i].x = p[i] * p[(i + 1) % n];
    a[i].tag = i;
    a[i].y = sin(p[i]);
  }
  memcpy(b, a, n * sizeof(struct tagged));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += b[i].x * b[i].y + b[i].tag;
  return s;
}
static void grad_hs(const double *p, double *gr) {
  for (int i = 0; i < N; ++i)
    gr[i] = 0;
  __enzyme_autodiff((void *)hs, p, gr);
}

/* q(a, b, d) = a b d + k exp(a - d), k read through a closure */
typedef struct {
  double k;
} Coeffs;
typedef struct {
  const Coeffs *coeffs;
} Closure;
typedef struct {
  double a, b, d;
} Grad3;
typedef struct {
  const Coeffs *coeffs;
} Context;
extern Grad3 __enzyme_autodiff_grad3(void *, ...);
static double q(const Closure *cl, double a, double b, double d) {
  return a * b * d + cl->coeffs->k * exp(a - d);
}
static void grad_q(const Context *ctx, Grad3 *out, double a, double b,
                   double d) {
  Closure cl = {ctx->coeffs};
  *out = __enzyme_autodiff_grad3((void *)q, enzyme_const, &cl, a, b, d);
}

int main(void) {
  {
    double xs[3] = {-0.8, 0.4, 2.1};
    for (int i = 0; i < 3; ++i) {
      double d2 = __enzyme_fwddiff((void *)df, xs[i], 1.0);
      CHECK_CLOSE(d2, f_d2(xs[i]), REV_TOL_EXACT);
      CHECK_CLOSE(d2, fd_central(df, xs[i]), FWD_TOL_FD);
    }
  }
  {
    double x = 0.7, y = -0.4, e = exp(x * y);
    double hxx = y * y * e + 2 * y * y * y, hxy = e + x * y * e + 6 * x * y * y,
           hyy = x * x * e + 6 * x * x * y;
    CHECK_CLOSE(__enzyme_fwddiff((void *)gx, x, 1.0, y, 0.0), hxx,
                REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)gx, x, 0.0, y, 1.0), hxy,
                REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)gy, x, 1.0, y, 0.0), hxy,
                REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)gy, x, 0.0, y, 1.0), hyy,
                REV_TOL_EXACT);
  }
  {
    double p[N] = {0.3, -0.7, 1.1, 0.5}, v[N] = {1.0, 0.5, -2.0, 0.25};
    double gr[N], hv[N] = {0}, H[N][N];
    __enzyme_fwddiff_void((void *)grad_h, p, v, gr, hv);
    hess_h(p, H);
    for (int i = 0; i < N; ++i) {
      double e = 0;
      for (int j = 0; j < N; ++j)
        e += H[i][j] * v[j];
      CHECK_CLOSE(hv[i], e, REV_TOL_EXACT);
    }
    /* the gradient itself came out of the primal run */
    double g2[N] = {0};
    __enzyme_autodiff((void *)h, p, g2);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(gr[i], g2[i], REV_TOL_EXACT);
  }
  {
    /* H = d/dp of g_i = 2 p_i p_{i+1} + p_{i-1}^2 (indices mod N) */
    double p[N] = {0.3, -0.7, 1.1, 0.5}, v[N] = {1.0, 0.5, -2.0, 0.25};
    double gr[N], hv[N] = {0};
    __enzyme_fwddiff_void((void *)grad_hc, p, v, gr, hv);
    for (int i = 0; i < N; ++i) {
      int next = (i + 1) % N, prev = (i + N - 1) % N;
      double e =
          2 * p[next] * v[i] + 2 * p[i] * v[next] + 2 * p[prev] * v[prev];
      CHECK_CLOSE(hv[i], e, REV_TOL_EXACT);
    }
  }
  {
    double p[N] = {0.3, -0.7, 1.1, 0.5}, v[N] = {1.0, 0.5, -2.0, 0.25};
    double gr[N], hv[N] = {0};
    __enzyme_fwddiff_void((void *)grad_hs, p, v, gr, hv);
    for (int k = 0; k < N; ++k) {
      int next = (k + 1) % N, prev = (k + N - 1) % N;
      double hkk = 2 * p[next] * cos(p[k]) - p[k] * p[next] * sin(p[k]);
      double hnext = sin(p[k]) + p[k] * cos(p[k]);
      double hprev = sin(p[prev]) + p[prev] * cos(p[prev]);
      CHECK_CLOSE(hv[k], hkk * v[k] + hnext * v[next] + hprev * v[prev],
                  REV_TOL_EXACT);
      CHECK_CLOSE(gr[k],
                  p[next] * sin(p[k]) + p[k] * p[next] * cos(p[k]) +
                      p[prev] * sin(p[prev]),
                  REV_TOL_EXACT);
    }
  }
  {
    Coeffs k = {2.0};
    Context ctx = {&k};
    Grad3 gr, hv;
    double a = 0.3, b = 0.5, d = 0.2, v[3] = {1.0, -2.0, 0.5};
    __enzyme_fwddiff_void((void *)grad_q, enzyme_const, &ctx, enzyme_dup, &gr,
                          &hv, a, v[0], b, v[1], d, v[2]);
    double e = 2.0 * exp(a - d);
    CHECK_CLOSE(gr.a, b * d + e, REV_TOL_EXACT);
    CHECK_CLOSE(hv.a, e * v[0] + d * v[1] + (b - e) * v[2], REV_TOL_EXACT);
    CHECK_CLOSE(hv.b, d * v[0] + a * v[2], REV_TOL_EXACT);
    CHECK_CLOSE(hv.d, (b - e) * v[0] + a * v[1] + e * v[2], REV_TOL_EXACT);
  }
  return check_finish();
}
