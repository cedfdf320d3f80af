/* Forward mode through control flow: if/else chains, switch, loops with
 * constant and data-dependent trip counts, break/continue, early returns,
 * do/while and goto, recursion, and calls to inlined and noinline
 * functions.  Tangents are checked against closed forms and central
 * differences. */
#include "fwd_check.h"

/* branches on the active value */
static double branches(double x) {
  double r;
  if (x < -1)
    r = x * x;
  else if (x < 0)
    r = sin(x);
  else if (x < 2)
    r = exp(x) - 1;
  else
    r = x * x * x / 4;
  return r + 0.5 * x;
}
static double branches_d(double x) {
  double d;
  if (x < -1)
    d = 2 * x;
  else if (x < 0)
    d = cos(x);
  else if (x < 2)
    d = exp(x);
  else
    d = 3 * x * x / 4;
  return d + 0.5;
}

/* switch on an integer argument selects the formula */
static double switched(double x, int k) {
  switch (k) {
  case 0:
    return x * x;
  case 1:
    return 3 * x;
  case 2:
  case 3:
    x = x * x * x; /* fall through */
  case 4:
    return x + 1;
  default:
    return sqrt(x);
  }
}
static double switched_d(double x, int k) {
  switch (k) {
  case 0:
    return 2 * x;
  case 1:
    return 3;
  case 2:
  case 3:
    return 3 * x * x;
  case 4:
    return 1;
  default:
    return 0.5 / sqrt(x);
  }
}
static int g_k;
static double switched_line(double t) { return switched(t, g_k); }

/* constant trip count: x^8 by repeated multiplication */
static double pow8(double x) {
  double r = 1;
  for (int i = 0; i < 8; ++i)
    r *= x;
  return r;
}

/* trip count from an int argument: sum_{i=1..n} x^i / i */
static double series(double x, int n) {
  double p = 1, s = 0;
  for (int i = 1; i <= n; ++i) {
    p *= x;
    s += p / i;
  }
  return s;
}
static double series_d(double x, int n) {
  double s = 0, p = 1;
  for (int i = 1; i <= n; ++i) {
    s += p;
    p *= x;
  }
  return s;
}
static double series_line(double t) { return series(t, 7); }

/* trip count depends on the active value: Newton iteration for sqrt(a)
 * until converged.  d/da sqrt(a) = 1 / (2 sqrt(a)); the derivative of the
 * converged iteration converges to that too. */
static double newton_sqrt(double a) {
  double x = a > 1 ? a : 1;
  for (int it = 0; it < 100; ++it) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}

/* while loop whose count depends on x: halve until below 1, counting */
static double halve(double x) {
  double s = 0;
  while (x > 1) {
    x *= 0.5;
    s += x;
  }
  return s + x * x;
}
static double halve_d(double x) {
  int m = 0;
  double y = x, s = 0;
  while (y > 1) {
    y *= 0.5;
    ++m;
    s += 1.0 / (1 << m);
  }
  return s + 2 * y / (1 << m);
}

/* continue / break and nested loops */
static double nested(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 2)
      continue;
    for (int j = 0; j <= i; ++j) {
      if (j == 4)
        break;
      s += a[i] * a[j];
    }
  }
  return s;
}

/* early return from inside a loop */
static double first_big(const double *a, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] * a[i] > 2.0)
      return a[i] * a[i] * a[i];
  return a[0] + a[n - 1];
}

/* do/while and goto */
static double dowhile(double x) {
  double r = 0;
  int i = 0;
  do {
    r = r * x + (i + 1);
  } while (++i < 4); /* 4x^3 ... Horner: x^3 + 2x^2 + 3x + 4 */
  return r;
}
static double with_goto(double x) {
  double r = x;
  int i = 0;
again:
  r = r * x;
  if (++i < 3)
    goto again;
  if (r > 100)
    goto big;
  return r; /* x^4 */
big:
  return 100 + log(r);
}

/* recursion: x^n by squaring, and a recursive polynomial */
static double rpow(double x, int n) {
  if (n == 0)
    return 1;
  double h = rpow(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}
static double rpow_line(double t) { return rpow(t, 11); }
/* H_n(x): Hermite polynomials, H_{n+1} = 2x H_n - 2n H_{n-1}; H_n' = 2n H_{n-1} */
static double hermite(double x, int n) {
  if (n == 0)
    return 1;
  if (n == 1)
    return 2 * x;
  return 2 * x * hermite(x, n - 1) - 2 * (n - 1) * hermite(x, n - 2);
}
static double hermite_line(double t) { return hermite(t, 6); }
/* mutual recursion */
static double odd_f(double x, int n);
static double even_f(double x, int n) { return n == 0 ? 1 : x * odd_f(x, n - 1); }
static double odd_f(double x, int n) { return n == 0 ? x : x + even_f(x, n - 1); }
static double mutual_line(double t) { return even_f(t, 6); }

/* calls: inlined helper, noinline helpers (one returning through pointers).
 * The noinline helpers have external linkage (static noinline callees:
 * fwd_static_calls.c). */
static inline double sq(double v) { return v * v; }
__attribute__((noinline)) double cube_ni(double v) { return v * v * v; }
__attribute__((noinline)) void polar(double r, double t, double *x,
                                     double *y) {
  *x = r * cos(t);
  *y = r * sin(t);
}
__attribute__((noinline)) double scale_ni(double v, int k) { return v * k; }
static double calls(double x) {
  double a, b;
  polar(x, 0.3 * x, &a, &b);
  return sq(a) + cube_ni(b) + scale_ni(x, 3) + cube_ni(2.0);
}
static double calls_d(double x) {
  double t = 0.3 * x, a = x * cos(t), b = x * sin(t);
  double da = cos(t) - 0.3 * x * sin(t), db = sin(t) + 0.3 * x * cos(t);
  return 2 * a * da + 3 * b * b * db + 3;
}

static double g_arr[6];
static double nested_line(double t) {
  double a[6];
  for (int i = 0; i < 6; ++i)
    a[i] = g_arr[i] + t * (i + 1);
  return nested(a, 6);
}
static double first_big_line(double t) {
  double a[6];
  for (int i = 0; i < 6; ++i)
    a[i] = g_arr[i] + t * (i + 1);
  return first_big(a, 6);
}

int main(void) {
  double xs[] = {-2.2, -0.6, 0.7, 1.9, 2.5};
  for (int i = 0; i < 5; ++i) {
    double x = xs[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)branches, x, 1.0), branches_d(x),
                  branches, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)pow8, x, 1.0), 8 * pow(x, 7), pow8,
                  x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)series, x, 1.0, 7), series_d(x, 7),
                  series_line, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)dowhile, x, 1.0),
                  3 * x * x + 4 * x + 3, dowhile, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)rpow, x, 1.0, 11),
                  11 * pow(x, 10), rpow_line, x);
    /* H_6' = 12 H_5 */
    CHECK_TANGENT(__enzyme_fwddiff((void *)hermite, x, 1.0, 6),
                  12 * hermite(x, 5), hermite_line, x);
    /* even_f(x, 6) = x^2 + 2x^3 + x^4 */
    CHECK_TANGENT(__enzyme_fwddiff((void *)even_f, x, 1.0, 6),
                  2 * x + 6 * x * x + 4 * pow(x, 3),
                  mutual_line, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)calls, x, 1.0), calls_d(x), calls,
                  x);
  }
  /* switch: every case */
  for (int k = 0; k <= 5; ++k) {
    double x = 1.7;
    g_k = k;
    CHECK_TANGENT(__enzyme_fwddiff((void *)switched, x, 1.0, k),
                  switched_d(x, k), switched_line, x);
  }
  /* data-dependent trip counts */
  double as[] = {0.01, 0.5, 2.0, 1234.5};
  for (int i = 0; i < 4; ++i) {
    double a = as[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)newton_sqrt, a, 1.0),
                  0.5 / sqrt(a), newton_sqrt, a);
  }
  double hs[] = {0.6, 1.5, 3.3, 17.0, 1000.1};
  for (int i = 0; i < 5; ++i)
    CHECK_TANGENT(__enzyme_fwddiff((void *)halve, hs[i], 1.0),
                  halve_d(hs[i]), halve, hs[i]);
  /* goto: both exits */
  CHECK_TANGENT(__enzyme_fwddiff((void *)with_goto, 1.5, 1.0), 4 * pow(1.5, 3),
                with_goto, 1.5);
  CHECK_TANGENT(__enzyme_fwddiff((void *)with_goto, 4.0, 1.0), 4 / 4.0,
                with_goto, 4.0);

  /* arrays with loops that skip and break, and an early return */
  {
    double a[6] = {0.3, -0.2, 0.5, 0.1, 0.9, -0.4}, da[6];
    for (int i = 0; i < 6; ++i) {
      g_arr[i] = a[i];
      da[i] = i + 1;
    }
    double want = 0;
    for (int i = 0; i < 6; ++i) {
      if (i % 3 == 2)
        continue;
      for (int j = 0; j <= i && j < 4; ++j)
        want += da[i] * a[j] + a[i] * da[j];
    }
    CHECK_TANGENT(__enzyme_fwddiff((void *)nested, a, da, 6), want,
                  nested_line, 0.0);
    /* no element large: returns a[0] + a[5] */
    CHECK_TANGENT(__enzyme_fwddiff((void *)first_big, a, da, 6), da[0] + da[5],
                  first_big_line, 0.0);
    a[3] = g_arr[3] = 1.6; /* returns a[3]^3 */
    CHECK_TANGENT(__enzyme_fwddiff((void *)first_big, a, da, 6),
                  3 * a[3] * a[3] * da[3], first_big_line, 0.0);
  }
  return check_finish();
}
