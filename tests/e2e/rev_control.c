/* Reverse mode through control flow: if/else chains, switch on an int and
 * on a value computed from the input, two labels on one case, loops with
 * constant and data-dependent trip counts (Newton's method, a while loop that
 * halves), nested loops, early returns and break/continue, recursion (linear
 * and tree-shaped), and goto.  The reverse sweep must replay the recorded path.
 * Each gradient: closed form, central differences and forward mode. */
#include "rev_check.h"

/* piecewise: three branches */
static double piece(double x) {
  if (x < -1)
    return x * x * x;
  else if (x < 1)
    return sin(x) * 2;
  return exp(x) / x;
}
static double piece_d(double x) {
  if (x < -1)
    return 3 * x * x;
  if (x < 1)
    return 2 * cos(x);
  return exp(x) / x - exp(x) / (x * x);
}
static double piece_arr(const double *x) { return piece(x[0]); }

/* switch on an int argument and on a value from the input */
static double sw(double x, int k) {
  double r = 0;
  switch (k) {
  case 0:
    r = x * x;
    break;
  case 1:
    r = sin(x);
    /* fall through */
  case 2:
    r += x * 3;
    break;
  case 7:
    r = exp(-x);
    break;
  default:
    r = x;
  }
  switch ((int)floor(x)) {
  case -1:
    r *= x;
    break;
  case 0:
    r = r * r;
    break;
  default:
    r += 1;
  }
  return r;
}
static int g_k;
static double sw_arr(const double *x) { return sw(x[0], g_k); }
static double sw_d(double x, int k) {
  double r, dr;
  switch (k) {
  case 0:
    r = x * x;
    dr = 2 * x;
    break;
  case 1:
    r = sin(x) + 3 * x;
    dr = cos(x) + 3;
    break;
  case 2:
    r = 3 * x;
    dr = 3;
    break;
  case 7:
    r = exp(-x);
    dr = -exp(-x);
    break;
  default:
    r = x;
    dr = 1;
  }
  switch ((int)floor(x)) {
  case -1:
    return dr * x + r;
  case 0:
    return 2 * r * dr;
  default:
    return dr;
  }
}

/* two case labels on one block (two edges from one switch) */
static double labels(double x, int k) {
  switch (k) {
  case 1:
  case 2:
    return x * x;
  default:
    return x;
  }
}
static double labels2(const double *x) {
  double q = x[1];
  switch ((int)x[0]) {
  case 1:
  case -1:
    if (x[2] > 0)
      q = log(x[0] * x[0]);
    break;
  default:
    break;
  }
  return q;
}

/* Newton's method for the cube root: data-dependent trip count; the
 * derivative of the converged value is 1/(3 y^2) */
static double newton_cbrt(double a) {
  double y = a > 1 ? a : 1;
  int it = 0;
  while (fabs(y * y * y - a) > 1e-14 * a && it < 100) {
    y = y - (y * y * y - a) / (3 * y * y);
    ++it;
  }
  return y;
}
static double newton_arr(const double *x) { return newton_cbrt(x[0]); }

/* while loop with a data-dependent count: halve until below 1 */
static double halve(double x) {
  double s = 0;
  while (x > 1) {
    s += x;
    x *= 0.5;
  }
  return s + x * x;
}
static double halve_arr(const double *x) { return halve(x[0]); }
static double halve_d(double x) {
  double d = 0, c = 1;
  while (x > 1) {
    d += c;
    c *= 0.5;
    x *= 0.5;
  }
  return d + 2 * x * c;
}

/* do-while, constant trip count, nested loop, break and continue */
static double nested(const double *p) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    if (i == 2)
      continue;
    double t = 1;
    int j = 0;
    do {
      t *= p[i] + j;
      ++j;
      if (t > 50)
        break;
    } while (j < 3);
    s += t;
  }
  return s;
}

/* early exits from inside a loop */
static double early(const double *p, int n) {
  double acc = 1;
  for (int i = 0; i < n; ++i) {
    if (p[i] < 0)
      return acc * p[i];
    acc *= p[i];
    if (acc > 10)
      return sqrt(acc);
  }
  return acc;
}
static int g_n = 4;
static double early_arr(const double *p) { return early(p, g_n); }

/* recursion: x^n by squaring; and a tree (Fibonacci-like) recursion */
static double rpow(double x, int n) {
  if (n == 0)
    return 1;
  double h = rpow(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}
static double rpow_arr(const double *x) { return rpow(x[0], g_n); }
static double tree(double x, int d) {
  if (d <= 1)
    return x;
  return sin(tree(x, d - 1)) + tree(x, d - 2) * x;
}
static double tree_arr(const double *x) { return tree(x[0], g_n); }
/* mutual recursion through non-static functions */
double mr_odd(double x, int n);
__attribute__((noinline)) double mr_even(double x, int n) {
  return n == 0 ? x : cos(mr_odd(x, n - 1)) * x;
}
__attribute__((noinline)) double mr_odd(double x, int n) {
  return n == 0 ? x : mr_even(x * x, n - 1) + x;
}
static double mr_arr(const double *x) { return mr_even(x[0], g_n); }

/* goto-based loop */
static double gotoloop(double x) {
  double r = x;
  int i = 0;
again:
  r = r * 0.9 + sin(r);
  if (++i < 5)
    goto again;
  return r;
}
static double gotoloop_arr(const double *x) { return gotoloop(x[0]); }

int main(void) {
  {
    double pts[6] = {-2.5, -1.2, -0.3, 0.7, 1.5, 3.0};
    for (int i = 0; i < 6; ++i) {
      double x[1] = {pts[i]}, e[1] = {piece_d(pts[i])};
      double g[1] = {__enzyme_autodiff((void *)piece, x[0])};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)piece, x[0], 1.0),
                  REV_TOL_DOT);
      CHECK_GRAD(piece_arr, x, 1, g, e);
    }
  }
  {
    int ks[5] = {0, 1, 2, 7, 5};
    double pts[3] = {-0.6, 0.4, 2.3};
    for (int a = 0; a < 5; ++a)
      for (int b = 0; b < 3; ++b) {
        g_k = ks[a];
        double x[1] = {pts[b]}, e[1] = {sw_d(pts[b], g_k)};
        double g[1] = {__enzyme_autodiff((void *)sw, x[0], g_k)};
        CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)sw, x[0], 1.0, g_k),
                    REV_TOL_DOT);
        CHECK_GRAD(sw_arr, x, 1, g, e);
      }
  }
  {
    CHECK_CLOSE(__enzyme_autodiff((void *)labels, 3.0, 2), 6.0, REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)labels, 3.0, 1), 6.0, REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)labels, 3.0, 5), 1.0, REV_TOL_EXACT);
    double xs[2][3] = {{1.5, 2, 0.3}, {-1.5, 2, -0.3}};
    for (int c = 0; c < 2; ++c) {
      double dx[3] = {0}, v[3];
      __enzyme_autodiff((void *)labels2, xs[c], dx);
      double e[3] = {c ? 0 : 2 / 1.5, c ? 1 : 0, 0};
      CHECK_GRAD(labels2, xs[c], 3, dx, e);
      rev_dir(dx, v, 3);
      CHECK_DOT(dx, v, 3, __enzyme_fwddiff((void *)labels2, xs[c], v));
    }
  }
  {
    double pts[4] = {0.2, 2.0, 27.0, 1000.0};
    for (int i = 0; i < 4; ++i) {
      double x[1] = {pts[i]}, y = cbrt(pts[i]), e[1] = {1 / (3 * y * y)};
      double g[1] = {__enzyme_autodiff((void *)newton_cbrt, x[0])};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)newton_cbrt, x[0], 1.0),
                  REV_TOL_DOT);
      CHECK_GRAD_TOL(newton_arr, x, 1, g, NULL, 1e-5);
      CHECK_CLOSE(g[0], e[0], 1e-8);
    }
  }
  {
    double pts[4] = {0.5, 1.7, 13.0, 1000.5};
    for (int i = 0; i < 4; ++i) {
      double x[1] = {pts[i]}, e[1] = {halve_d(pts[i])};
      double g[1] = {__enzyme_autodiff((void *)halve, x[0])};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)halve, x[0], 1.0),
                  REV_TOL_DOT);
      CHECK_GRAD(halve_arr, x, 1, g, e);
    }
  }
  {
    double p[4] = {1.5, 0.5, 9.0, 2.0}, dp[4] = {0};
    __enzyme_autodiff((void *)nested, p, dp);
    double v[4];
    rev_dir(dp, v, 4);
    CHECK_DOT(dp, v, 4, __enzyme_fwddiff((void *)nested, p, v));
    /* i=0: (p)(p+1)(p+2); i=1 same; i=3: p(p+1)=6, *(p+2)=24; no break
     * unless > 50 */
    double e[4];
    for (int i = 0; i < 4; ++i) {
      double a = p[i];
      e[i] = (a + 1) * (a + 2) + a * (a + 2) + a * (a + 1);
    }
    e[2] = 0;
    CHECK_GRAD(nested, p, 4, dp, e);
    /* a break: p[0] = 6: 6*7 = 42, *8 = 336 > 50 -> break after j = 3
     * anyway; p[0] = 8: 8*9 = 72 > 50 -> break at j = 2 */
    double q[4] = {8.0, 0.5, 1.0, 2.0}, dq[4] = {0};
    __enzyme_autodiff((void *)nested, q, dq);
    double w[4];
    rev_dir(dq, w, 4);
    CHECK_DOT(dq, w, 4, __enzyme_fwddiff((void *)nested, q, w));
    double eq[4] = {2 * 8.0 + 1, e[1], 0, e[3]};
    CHECK_GRAD(nested, q, 4, dq, eq);
  }
  {
    double ps[3][4] = {
        {1.5, 2.0, -0.5, 3.0}, {1.5, 1.2, 1.1, 1.05}, {2.0, 3.0, 4.0, 0.5}};
    for (int c = 0; c < 3; ++c) {
      double *p = ps[c], dp[4] = {0};
      __enzyme_autodiff((void *)early, p, dp, enzyme_const, g_n);
      {
        double v[4];
        rev_dir(dp, v, 4);
        CHECK_DOT(dp, v, 4, __enzyme_fwddiff((void *)early, p, v, g_n));
      }
      CHECK_GRAD(early_arr, p, 4, dp, NULL);
    }
    double *p = ps[0], dp[4] = {0};
    __enzyme_autodiff((void *)early, p, dp, enzyme_const, g_n);
    {
      double v[4];
      rev_dir(dp, v, 4);
      CHECK_DOT(dp, v, 4, __enzyme_fwddiff((void *)early, p, v, g_n));
    }
    double e[4] = {2.0 * -0.5, 1.5 * -0.5, 1.5 * 2.0, 0};
    CHECK_GRAD(early_arr, p, 4, dp, e);
  }
  {
    int ns[4] = {0, 1, 5, 12};
    for (int i = 0; i < 4; ++i) {
      g_n = ns[i];
      double x[1] = {1.1}, e[1] = {g_n * pow(1.1, g_n - 1)};
      double g[1] = {__enzyme_autodiff((void *)rpow, x[0], g_n)};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)rpow, x[0], 1.0, g_n),
                  REV_TOL_DOT);
      CHECK_GRAD(rpow_arr, x, 1, g, e);
    }
    for (int d = 1; d < 8; d += 3) {
      g_n = d;
      double x[1] = {0.7};
      double g[1] = {__enzyme_autodiff((void *)tree, x[0], g_n)};
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)tree, x[0], 1.0, g_n),
                  REV_TOL_DOT);
      CHECK_GRAD(tree_arr, x, 1, g, NULL);
      g[0] = __enzyme_autodiff((void *)mr_even, x[0], g_n);
      CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)mr_even, x[0], 1.0, g_n),
                  REV_TOL_DOT);
      CHECK_GRAD(mr_arr, x, 1, g, NULL);
    }
    g_n = 4;
  }
  {
    double x[1] = {0.3};
    double g[1] = {__enzyme_autodiff((void *)gotoloop, x[0])};
    CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)gotoloop, x[0], 1.0),
                REV_TOL_DOT);
    double r = 0.3, d = 1;
    for (int i = 0; i < 5; ++i) {
      d = d * (0.9 + cos(r));
      r = r * 0.9 + sin(r);
    }
    double e[1] = {d};
    CHECK_GRAD(gotoloop_arr, x, 1, g, e);
  }
  return check_finish();
}
