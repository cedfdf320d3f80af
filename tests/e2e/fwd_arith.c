/* Forward mode through __enzyme_fwddiff: float and double arithmetic,
 * conversions, selects and ternaries, mixed activities (enzyme_const, int
 * arguments, float arguments), enzyme_primal_return, enzyme_const_return,
 * enzyme_noret, enzyme_dupnoneed.  Tangents are checked against closed forms
 * and central finite differences. */
#include "fwd_check.h"

typedef struct {
  double primal, tangent;
} dual_d;
typedef struct {
  float primal, tangent;
} dual_f;
dual_d __enzyme_fwddiff_pr(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
dual_f __enzyme_fwddiff_fpr(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

/* rational function: (3x^3 - 2x + 1) / (x^2 + 1) */
static double rational(double x) {
  return (3 * x * x * x - 2 * x + 1) / (x * x + 1);
}
static double rational_d(double x) {
  double p = 3 * x * x * x - 2 * x + 1, q = x * x + 1;
  return ((9 * x * x - 2) * q - p * 2 * x) / (q * q);
}

/* negation, subtraction, division by the active value */
static double mixed_ops(double x) { return -x / (2.0 - x) + 1.0 / x - x; }
static double mixed_ops_d(double x) {
  return -2.0 / ((2.0 - x) * (2.0 - x)) - 1.0 / (x * x) - 1.0;
}

/* two active arguments */
static double two(double x, double y) { return x * y * y - y / x; }
static double g_two_y = 1.7;
static double two_line_x(double t) { return two(t, g_two_y); }

/* int and float arguments between doubles: int is const by default */
static double mix_args(double a, int k, float b, double c) {
  return a * k + (double)b * a * c + k * k;
}

/* conversions: fptrunc/fpext, sitofp, fptosi */
static double via_float(double x) {
  float f = (float)x;
  return (double)(f * f) + x;
}
static double int_scale(double x, int n) {
  double acc = 0;
  for (int i = 1; i <= n; ++i)
    acc += (double)i * x;
  return acc + (double)(int)x; /* (int)x is piecewise constant */
}
static double g_n = 5;
static double int_scale_line(double t) { return int_scale(t, (int)g_n); }

/* float arithmetic */
static float cubic_f(float x) { return x * x * x - x / 3.0f + 2.0f; }
static float promote_f(float x) {
  double d = x; /* fpext, computed in double, fptrunc back */
  return (float)(d * d * 0.5);
}

/* selects and ternaries */
static double piecewise(double x) { return x > 0 ? x * x : -x * x * x; }
static double piecewise_d(double x) { return x > 0 ? 2 * x : -3 * x * x; }
static double maxprod(double x, double y) {
  double p = x * y, s = x + y;
  return p > s ? p : s;
}
static double g_mp_y = 3.0;
static double maxprod_line(double t) { return maxprod(t, g_mp_y); }
static double clamp_sq(double x) {
  double c = x < -1 ? -1 : (x > 1 ? 1 : x);
  return c * c + x;
}
static double abs_ternary(double x) { return (x < 0 ? -x : x) * 3; }

/* const_return / noret / dupnoneed: a result written through a pointer */
static double write_out(double x, double *out) {
  *out = x * x * x;
  return 3 * x;
}
static void write_only(double x, double *out) { out[0] = x * x; out[1] = -x; }

int main(void) {
  double xs[] = {-2.5, -0.7, 0.3, 1.4, 3.2};
  for (int i = 0; i < 5; ++i) {
    double x = xs[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)rational, x, 1.0), rational_d(x),
                  rational, x);
    CHECK_CLOSE(__enzyme_fwddiff((void *)rational, x, 2.5),
                2.5 * rational_d(x), FWD_TOL_EXACT); /* linear in the seed */
    CHECK_TANGENT(__enzyme_fwddiff((void *)mixed_ops, x, 1.0), mixed_ops_d(x),
                  mixed_ops, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)piecewise, x, 1.0), piecewise_d(x),
                  piecewise, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)clamp_sq, x, 1.0),
                  (x < -1 || x > 1) ? 1.0 : 2 * x + 1, clamp_sq, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)abs_ternary, x, 1.0),
                  x < 0 ? -3.0 : 3.0, abs_ternary, x);
    /* (through a volatile float: -ffast-math may fold the expected
       value's (double)(float)x into x; the derivative keeps the rounding) */
    volatile float xf = (float)x;
    CHECK_CLOSE(__enzyme_fwddiff((void *)via_float, x, 1.0),
                2 * (double)xf + 1, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)via_float, x, 1.0), 2 * x + 1, 1e-6);
  }

  /* two active inputs: partials and a directional derivative */
  {
    double x = 1.3, y = g_two_y;
    double dx = __enzyme_fwddiff((void *)two, x, 1.0, y, 0.0);
    double dy = __enzyme_fwddiff((void *)two, x, 0.0, y, 1.0);
    double dd = __enzyme_fwddiff((void *)two, x, 0.5, y, -2.0);
    CHECK_TANGENT(dx, y * y + y / (x * x), two_line_x, x);
    CHECK_CLOSE(dy, 2 * x * y - 1 / x, FWD_TOL_EXACT);
    CHECK_CLOSE(dd, 0.5 * dx - 2.0 * dy, FWD_TOL_EXACT);
    /* enzyme_const on y: only the x partial */
    CHECK_CLOSE(__enzyme_fwddiff((void *)two, x, 1.0, enzyme_const, y), dx,
                FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)two, enzyme_const, x, y, 1.0), dy,
                FWD_TOL_EXACT);
  }
  {
    double x = 2.0, y = g_mp_y; /* p = 6 > s = 5 */
    CHECK_TANGENT(__enzyme_fwddiff((void *)maxprod, x, 1.0, y, 0.0), y,
                  maxprod_line, x);
    g_mp_y = 0.5; /* p = 1 < s = 2.5 */
    CHECK_TANGENT(__enzyme_fwddiff((void *)maxprod, x, 1.0, 0.5, 0.0), 1.0,
                  maxprod_line, x);
  }

  /* int, float and const double arguments */
  {
    double a = 1.5, c = -0.25;
    float b = 2.0f;
    CHECK_CLOSE(__enzyme_fwddiff((void *)mix_args, a, 1.0, 4, b, 0.0f,
                                 enzyme_const, c),
                4 + b * c, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)mix_args, a, 0.0, 4, b, 1.0f,
                                 enzyme_const, c),
                a * c, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)mix_args, a, 0.0, 4, b, 0.0f, c, 1.0),
                b * a, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)mix_args, enzyme_const, a,
                                 enzyme_const, 4, b, 1.0f, enzyme_const, c),
                a * c, FWD_TOL_EXACT);
  }
  for (int i = 0; i < 5; ++i) {
    double x = xs[i] + 0.05; /* away from integer breakpoints */
    CHECK_TANGENT(__enzyme_fwddiff((void *)int_scale, x, 1.0, 5), 15.0,
                  int_scale_line, x);
  }

  /* float functions: derivative in float, compared to the double closed
   * form with single-precision tolerance and to float differences */
  for (int i = 0; i < 5; ++i) {
    float x = (float)xs[i];
    float d = __enzyme_fwddiff_f((void *)cubic_f, x, 1.0f);
    CHECK_CLOSE(d, 3.0 * x * x - 1.0 / 3, 1e-6);
    CHECK_CLOSE(d, fd_central_f(cubic_f, x), 2e-3);
    float e = __enzyme_fwddiff_f((void *)promote_f, x, 1.0f);
    CHECK_CLOSE(e, (double)x, 1e-6);
    CHECK_CLOSE(e, fd_central_f(promote_f, x), 2e-3);
    dual_f pf = __enzyme_fwddiff_fpr((void *)cubic_f, enzyme_primal_return, x,
                                     1.0f);
    CHECK_CLOSE(pf.primal, cubic_f(x), 1e-7);
    CHECK_CLOSE(pf.tangent, d, 1e-7);
  }

  /* enzyme_primal_return */
  {
    double x = 0.8;
    dual_d r = __enzyme_fwddiff_pr((void *)rational, enzyme_primal_return, x,
                                   1.0);
    CHECK_CLOSE(r.primal, rational(x), FWD_TOL_EXACT);
    CHECK_CLOSE(r.tangent, rational_d(x), FWD_TOL_EXACT);
  }

  /* results through a pointer: dup, dupnoneed, const_return, noret */
  {
    double x = 1.5, out = 0, dout = 0;
    double t = __enzyme_fwddiff((void *)write_out, x, 1.0, enzyme_dup, &out,
                                &dout);
    CHECK_CLOSE(t, 3.0, FWD_TOL_EXACT);
    CHECK_CLOSE(out, x * x * x, FWD_TOL_EXACT);
    CHECK_CLOSE(dout, 3 * x * x, FWD_TOL_EXACT);
    dout = 0;
    t = __enzyme_fwddiff((void *)write_out, x, 1.0, enzyme_dupnoneed, &out,
                         &dout);
    CHECK_CLOSE(t, 3.0, FWD_TOL_EXACT);
    CHECK_CLOSE(dout, 3 * x * x, FWD_TOL_EXACT);
    out = dout = 0;
    t = __enzyme_fwddiff((void *)write_out, enzyme_const_return, x, 1.0,
                         enzyme_dup, &out, &dout);
    CHECK_CLOSE(t, 3 * x, FWD_TOL_EXACT); /* the primal result */
    CHECK_CLOSE(dout, 3 * x * x, FWD_TOL_EXACT);
    out = dout = 0;
    __enzyme_fwddiff_void((void *)write_out, enzyme_noret, x, 1.0, enzyme_dup,
                          &out, &dout);
    CHECK_CLOSE(out, x * x * x, FWD_TOL_EXACT);
    CHECK_CLOSE(dout, 3 * x * x, FWD_TOL_EXACT);
    double o2[2] = {0, 0}, d2[2] = {0, 0};
    __enzyme_fwddiff_void((void *)write_only, x, 2.0, o2, d2);
    CHECK_CLOSE(o2[0], x * x, FWD_TOL_EXACT);
    CHECK_CLOSE(d2[0], 4 * x, FWD_TOL_EXACT);
    CHECK_CLOSE(d2[1], -2.0, FWD_TOL_EXACT);
  }
  return check_finish();
}
