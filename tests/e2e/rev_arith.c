/* Reverse mode (__enzyme_autodiff) on scalar arithmetic: one, two and three
 * active arguments (adjoints returned in order), explicit enzyme_out and
 * enzyme_const, int arguments, float, conversions, select, division,
 * negation, an output through a duplicated pointer, a void function, and
 * argument adjoints that accumulate when an argument is used many times.
 * Checked against closed forms, central differences and forward mode. */
#include "rev_check.h"

static double sq(double x) { return x * x * x - 2 * x + 1 / x; }
static double sq_arr(const double *x) { return sq(x[0]); }

static double f2(double a, double b) { return a * b * b - a / b + 3 * a; }
static double f2_arr(const double *x) { return f2(x[0], x[1]); }

static double f3(double a, double b, double c) {
  double t = a * b - c;
  return t * t / (1 + c * c) - (-a) * c;
}
static double f3_arr(const double *x) { return f3(x[0], x[1], x[2]); }

/* ints interleaved: const by default */
static double fint(int k, double x, int m, double y) {
  return k * x * x + m * y + (double)(k * m) * x * y;
}
static int g_k = 3, g_m = -2;
static double fint_arr(const double *x) { return fint(g_k, x[0], g_m, x[1]); }

/* int <-> double conversions are piecewise constant */
static double conv(double x) {
  int i = (int)x;
  long l = (long)(x * 10);
  return x * i + (double)l * 0.01 + x * x;
}
static double conv_arr(const double *x) { return conv(x[0]); }

/* selects and comparisons */
static double sel(double a, double b) {
  double m = a > b ? a : b;
  double n = a < 0 ? -a : a;
  return m * n + (a == b ? 100 : 0);
}
static double sel_arr(const double *x) { return sel(x[0], x[1]); }

/* one argument used many times */
static double many(double x) {
  double r = x;
  r = r * x + x;
  r = r * x - x * x;
  r += x / (x + 2);
  return r * r;
}
static double many_arr(const double *x) { return many(x[0]); }

/* float */
static float ff(float a, float b) { return a * a * b + b / a; }

/* output through a pointer, no return value */
static void outp(double a, double b, double *out) { *out = a * a * b; }
/* result written to a pointer and also returned */
static double both(double a, double *out) {
  *out = 3 * a;
  return a * a;
}
/* a mix of pointer (dup) and scalar (out) arguments */
static double mixp(const double *p, double s) {
  return p[0] * p[1] * s + s * s;
}

/* constant result */
static double cst(double x) {
  (void)x;
  return 42.0;
}

/* long double free, but unsigned and char conversions */
static double uconv(double x, unsigned u, char c) { return x * u + c * x * x; }

int main(void) {
  /* one active argument, several points */
  {
    double pts[4] = {-1.5, 0.3, 1.0, 4.0};
    for (int i = 0; i < 4; ++i) {
      double x[1] = {pts[i]};
      double g[1] = {__enzyme_autodiff((void *)sq, x[0])};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)sq, x[0], 1.0), REV_TOL_DOT);
      double e[1] = {3 * x[0] * x[0] - 2 - 1 / (x[0] * x[0])};
      CHECK_GRAD(sq_arr, x, 1, g, e);
    }
  }
  /* two active: a struct of both adjoints, in order */
  {
    double x[2] = {1.3, -0.7};
    rev_two t = __enzyme_autodiff2((void *)f2, x[0], x[1]);
    double v[2];
    rev_dir((double[]){t.a, t.b}, v, 2);
    CHECK_CLOSE(t.a * v[0] + t.b * v[1],
                __enzyme_fwddiff((void *)f2, x[0], v[0], x[1], v[1]),
                REV_TOL_DOT);
    double g[2] = {t.a, t.b};
    double a = x[0], b = x[1];
    double e[2] = {b * b - 1 / b + 3, 2 * a * b + a / (b * b)};
    CHECK_GRAD(f2_arr, x, 2, g, e);
    /* one of them const: the other's adjoint alone */
    CHECK_CLOSE(__enzyme_autodiff((void *)f2, enzyme_const, a, b), e[1],
                REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)f2, a, enzyme_const, b), e[0],
                REV_TOL_EXACT);
    /* explicit enzyme_out, before the first and a later parameter */
    CHECK_CLOSE(__enzyme_autodiff((void *)f2, enzyme_const, a, enzyme_out, b),
                e[1], REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)f2, enzyme_out, a, enzyme_const, b),
                e[0], REV_TOL_EXACT);
    rev_two o = __enzyme_autodiff2((void *)f2, enzyme_out, a, enzyme_out, b);
    CHECK_CLOSE(o.a, e[0], REV_TOL_EXACT);
    CHECK_CLOSE(o.b, e[1], REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)sq, enzyme_out, a),
                3 * a * a - 2 - 1 / (a * a), REV_TOL_EXACT);
  }
  /* three active */
  {
    double x[3] = {0.4, 1.7, -0.9};
    rev_three t = __enzyme_autodiff3((void *)f3, x[0], x[1], x[2]);
    double v[3] = {rev_rand(), rev_rand(), rev_rand()};
    CHECK_CLOSE(
        t.a * v[0] + t.b * v[1] + t.c * v[2],
        __enzyme_fwddiff((void *)f3, x[0], v[0], x[1], v[1], x[2], v[2]),
        REV_TOL_DOT);
    double g[3] = {t.a, t.b, t.c};
    double a = x[0], b = x[1], c = x[2], q = 1 + c * c, s = a * b - c;
    double e[3] = {2 * s * b / q + c, 2 * s * a / q,
                   -2 * s / q - s * s * 2 * c / (q * q) + a};
    CHECK_GRAD(f3_arr, x, 3, g, e);
    rev_two u = __enzyme_autodiff2((void *)f3, a, enzyme_const, b, c);
    CHECK_CLOSE(u.a, e[0], REV_TOL_EXACT);
    CHECK_CLOSE(u.b, e[2], REV_TOL_EXACT);
  }
  /* int args are const */
  {
    double x[2] = {0.6, 2.5};
    rev_two t = __enzyme_autodiff2((void *)fint, g_k, x[0], g_m, x[1]);
    CHECK_CLOSE(t.a * 0.3 - t.b * 0.7,
                __enzyme_fwddiff((void *)fint, g_k, x[0], 0.3, g_m, x[1], -0.7),
                REV_TOL_DOT);
    double g[2] = {t.a, t.b};
    double e[2] = {2 * g_k * x[0] + g_k * g_m * x[1], g_m + g_k * g_m * x[0]};
    CHECK_GRAD(fint_arr, x, 2, g, e);
  }
  /* conversions */
  {
    double pts[3] = {-2.37, 0.55, 3.71};
    for (int i = 0; i < 3; ++i) {
      double x[1] = {pts[i]};
      double g[1] = {__enzyme_autodiff((void *)conv, x[0])};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)conv, x[0], 1.0), REV_TOL_DOT);
      double e[1] = {(int)x[0] + 2 * x[0]};
      CHECK_GRAD(conv_arr, x, 1, g, e);
    }
    CHECK_CLOSE(__enzyme_autodiff((void *)uconv, 1.5, 7u, (char)3),
                7 + 2 * 3 * 1.5, REV_TOL_EXACT);
  }
  /* selects */
  {
    double as[4] = {1.5, -0.5, 0.5, -2.0}, bs[4] = {0.5, 1.0, 2.0, -3.0};
    for (int i = 0; i < 4; ++i) {
      double x[2] = {as[i], bs[i]}, a = x[0], b = x[1];
      rev_two t = __enzyme_autodiff2((void *)sel, a, b);
      CHECK_CLOSE(t.a * 0.6 + t.b * 1.3,
                  __enzyme_fwddiff((void *)sel, a, 0.6, b, 1.3), REV_TOL_DOT);
      double g[2] = {t.a, t.b};
      double m = a > b ? a : b, n = fabs(a), sg = a < 0 ? -1 : 1;
      double e[2] = {(a > b ? n : 0) + m * sg, a > b ? 0 : n};
      CHECK_GRAD(sel_arr, x, 2, g, e);
    }
  }
  /* many uses */
  {
    double x[1] = {0.8};
    double g[1] = {__enzyme_autodiff((void *)many, x[0])};
    CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)many, x[0], 1.0), REV_TOL_DOT);
    double v = x[0];
    double r1 = v * v + v, dr1 = 2 * v + 1;
    double r2 = r1 * v - v * v, dr2 = dr1 * v + r1 - 2 * v;
    double r3 = r2 + v / (v + 2), dr3 = dr2 + 2 / ((v + 2) * (v + 2));
    double e[1] = {2 * r3 * dr3};
    CHECK_GRAD(many_arr, x, 1, g, e);
  }
  /* float */
  {
    float a = 1.25f, b = -0.75f;
    CHECK_CLOSE(__enzyme_autodiff_f((void *)ff, a, enzyme_const, b),
                2 * a * b - b / (a * a), 1e-6);
    CHECK_CLOSE(__enzyme_autodiff_f((void *)ff, enzyme_const, a, b),
                a * a + 1 / a, 1e-6);
    /* a float adjoint through the double-declared entry point */
    CHECK_CLOSE(__enzyme_autodiff((void *)ff, a, enzyme_const, b),
                2 * a * b - b / (a * a), 1e-6);
  }
  /* output through a duplicated pointer, seeded by its shadow */
  {
    double out = 0, dout = 1;
    rev_two t =
        __enzyme_autodiff2((void *)outp, 1.5, 2.0, enzyme_dup, &out, &dout);
    CHECK_CLOSE(t.a, 2 * 1.5 * 2.0, REV_TOL_EXACT);
    CHECK_CLOSE(t.b, 1.5 * 1.5, REV_TOL_EXACT);
    CHECK_CLOSE(out, 4.5, REV_TOL_EXACT);
    CHECK_CLOSE(dout, 0.0, REV_TOL_EXACT); /* consumed by the store */
    /* seed 2.5: adjoints scale */
    dout = 2.5;
    double da =
        __enzyme_autodiff((void *)outp, 1.5, enzyme_const, 2.0, &out, &dout);
    CHECK_CLOSE(da, 2.5 * 6.0, REV_TOL_EXACT);
    /* returned and written: both seeds contribute */
    double o2 = 0, do2 = 1;
    CHECK_CLOSE(__enzyme_autodiff((void *)both, 0.7, &o2, &do2), 2 * 0.7 + 3,
                REV_TOL_EXACT);
    CHECK_CLOSE(o2, 2.1, REV_TOL_EXACT);
  }
  /* pointer dup and scalar out together */
  {
    double p[2] = {2.0, 3.0}, dp[2] = {0.5, 0.5}; /* adjoints are added */
    double ds = __enzyme_autodiff((void *)mixp, enzyme_dup, p, dp, 1.5);
    CHECK_CLOSE(ds, 6.0 + 3.0, REV_TOL_EXACT);
    CHECK_CLOSE(dp[0], 0.5 + 3.0 * 1.5, REV_TOL_EXACT);
    CHECK_CLOSE(dp[1], 0.5 + 2.0 * 1.5, REV_TOL_EXACT);
  }
  /* constant function: zero adjoint */
  CHECK_CLOSE(__enzyme_autodiff((void *)cst, 3.0), 0.0, REV_TOL_EXACT);
  return check_finish();
}
