/* Enzyme's __enzyme_truncate_op_func (docs/api.md, "Floating-point
 * truncation"): a copy of a function whose operations on doubles are done
 * in float (or half), the functions it calls copied alike, memory and
 * arguments still double. Checked: the truncated primal against the same
 * code written in float, stores of rounded values, and its derivatives in
 * forward and reverse mode against analytic values and central differences
 * of the full-precision function, forward against reverse. A forward
 * tangent is computed in float too: it is a float's value. */
#include "check.h"

#include <math.h>

typedef double (*fn2)(double, double);
typedef double (*fnarr)(const double *, double *, int);
fn2 __enzyme_truncate_op_func(fn2, int, int);
fn2 __enzyme_truncate_op_func_2(fn2, int, int, int);
fnarr __enzyme_truncate_op_func_arr(fnarr, int, int);
typedef struct {
  double a, b;
} pair;
pair __enzyme_autodiff(void *, ...);
void __enzyme_autodiff_arr(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_out, enzyme_dup, enzyme_const;

__attribute__((noinline)) static double helper(double a) {
  return sqrt(a) + sin(a);
}
static double g(double a, double b) {
  double s = 0;
  for (int i = 1; i <= 4; ++i)
    s += helper(a * i) / (b + i);
  if (a > b)
    s = s * a;
  return s * pow(b, 2.5) + exp(a / 3);
}
/* g's computation in float. */
static float helperf(float a) { return (float)sqrt(a) + (float)sin(a); }
static float gf(float a, float b) {
  float s = 0;
  for (int i = 1; i <= 4; ++i)
    s += helperf(a * (float)i) / (b + (float)i);
  if (a > b)
    s = s * a;
  return s * (float)pow(b, 2.5) + (float)exp(a / 3.f);
}

/* d/da = b + 1/(2 sqrt(a)), d/db = a. */
static double simple(double a, double b) { return a * b + sqrt(a); }

static double scale(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * 3.1 + x[i] * x[i] / 7;
    s += y[i] * x[i];
  }
  return s;
}

static int is_float(double v) { return (double)(float)v == v; }

int main(void) {
  const double a = 1.3, b = 0.7, h = 1e-5;
  fn2 t = __enzyme_truncate_op_func(g, 64, 32);
  double full = g(a, b), tr = t(a, b);
  CHECK_CLOSE(tr, (double)gf((float)a, (float)b), 4e-7);
  CHECK_TRUE(tr != full && is_float(tr));
  CHECK_CLOSE(tr, full, 1e-6);
  /* Half: 11 significant bits. */
  double half = __enzyme_truncate_op_func_2(g, 64, 5, 10)(a, b);
  CHECK_TRUE(half != tr);
  CHECK_CLOSE(half, full, 4e-3);

  /* Derivatives of the truncated function. */
  double fda = (g(a + h, b) - g(a - h, b)) / (2 * h);
  double fdb = (g(a, b + h) - g(a, b - h)) / (2 * h);
  double da = __enzyme_fwddiff((void *)__enzyme_truncate_op_func(g, 64, 32),
                               a, 1.0, b, 0.0);
  double db = __enzyme_fwddiff((void *)__enzyme_truncate_op_func(g, 64, 32),
                               a, 0.0, b, 1.0);
  CHECK_CLOSE(da, fda, 2e-6);
  CHECK_CLOSE(db, fdb, 2e-6);
  CHECK_TRUE(is_float(da) && is_float(db));
  pair r = __enzyme_autodiff((void *)__enzyme_truncate_op_func(g, 64, 32),
                             enzyme_out, a, enzyme_out, b);
  CHECK_CLOSE(r.a, da, 2e-6);
  CHECK_CLOSE(r.b, db, 2e-6);

  pair s = __enzyme_autodiff((void *)__enzyme_truncate_op_func(simple, 64, 32),
                             enzyme_out, a, enzyme_out, b);
  CHECK_CLOSE(s.a, b + 0.5 / sqrt(a), 1e-6);
  CHECK_CLOSE(s.b, a, 1e-6);
  CHECK_TRUE(is_float(s.b));

  /* Memory keeps doubles, holding the rounded values. */
  double x[5] = {0.3, 1.1, -2.7, 0.45, 1.9}, y[5], yf[5];
  fnarr st = __enzyme_truncate_op_func_arr(scale, 64, 32);
  double sum = st(x, y, 5), sumf = scale(x, yf, 5);
  CHECK_CLOSE(sum, sumf, 1e-6);
  CHECK_TRUE(sum != sumf && is_float(sum));
  for (int i = 0; i < 5; ++i) {
    CHECK_TRUE(is_float(y[i]));
    CHECK_CLOSE(y[i], yf[i], 1e-6);
  }
  double dx[5] = {0}, dy[5] = {0};
  __enzyme_autodiff_arr((void *)__enzyme_truncate_op_func_arr(scale, 64, 32),
                        enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 5);
  for (int i = 0; i < 5; ++i) {
    /* d/dx_i of y_i x_i = 2 * 3.1 x_i + 3 x_i^2 / 7 */
    CHECK_CLOSE(dx[i], 6.2 * x[i] + 3 * x[i] * x[i] / 7, 1e-6);
    double e[5] = {0};
    e[i] = 1;
    double tangent = __enzyme_fwddiff(
        (void *)__enzyme_truncate_op_func_arr(scale, 64, 32), enzyme_dup, x,
        e, enzyme_dup, y, dy, enzyme_const, 5);
    CHECK_CLOSE(tangent, dx[i], 1e-6);
    CHECK_TRUE(is_float(tangent));
  }
  return check_finish();
}
