/* Batched forward mode (enzyme_width 2 and 4): every lane must equal the
 * width-1 tangent of the same direction.  Scalar arguments take N tangents,
 * duplicated pointers N shadow pointers; results come back as N tangents
 * (a struct of N doubles or floats, with the primal first under
 * enzyme_primal_return), or through N shadow outputs. */
#include "fwd_check.h"
#include <string.h>

typedef struct {
  double d[2];
} d2;
typedef struct {
  double d[3];
} d3;
typedef struct {
  double d[4];
} d4;
typedef struct {
  double primal;
  double d[2];
} pd2;
typedef struct {
  float f[4];
} f4;
typedef struct {
  float f[2];
} f2;
d2 __enzyme_fwddiff_w2(void *, ...);
d3 __enzyme_fwddiff_w3(void *, ...); /* returned through a hidden pointer */
d4 __enzyme_fwddiff_w4(void *, ...);
pd2 __enzyme_fwddiff_pw2(void *, ...);
f4 __enzyme_fwddiff_w4f(void *, ...);
f2 __enzyme_fwddiff_w2f(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
float __enzyme_fwddiff_f(void *, ...);

/* two scalar inputs: both partials in one call */
static double f2d(double x, double y) {
  return sin(x * y) + exp(x - y) * y + pow(x, 3.0) / (1 + y * y);
}

/* pointer input, loop, branch, libm */
static double mixed(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    s += v > 0 ? log1p(v * v) : atan(v) * v;
  }
  return sqrt(s + 1) * tanh(x[0]);
}

/* output through a duplicated pointer, with heap memory and a noinline call */
__attribute__((noinline)) double helper_ni(double a, double b) {
  return a * b + cos(a);
}
static void outputs(const double *x, double *out, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[(i + 1) % n];
  for (int i = 0; i < n; ++i)
    out[i] = helper_ni(t[i], x[i]) + (i ? out[i - 1] * 0.5 : 0);
  free(t);
}

/* float, width 4 */
static float ff(float x, float y) { return x * x * y + sinf(x) * expf(-y); }

/* every unary libm function, batched: lane k must be (k - 1.5) times the
 * width-1 tangent */
#define UNARY(X)                                                               \
  X(sqrt) X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin)     \
  X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh)      \
  X(atanh) X(erf) X(erfc) X(tgamma) X(lgamma) X(cbrt) X(fabs) X(floor)        \
  X(ceil) X(round) X(trunc)
#define WRAP(name)                                                             \
  static double w_##name(double x) { return name(x) * x; }                     \
  static float wf_##name(float x) { return name##f(x) * x; }
UNARY(WRAP)
static double w_acosh(double x) { return acosh(x) * x; }

/* directions */
#define NX 5
static const double X0[NX] = {0.4, -1.2, 0.9, 2.0, -0.3};
static double dir(int k, int i) { return cos(1.3 * k + 0.7 * i) + (k == i); }

int main(void) {
  /* width 2 on scalars: the two partials */
  {
    double x = 0.6, y = -1.1;
    d2 r = __enzyme_fwddiff_w2((void *)f2d, enzyme_width, 2, x, 1.0, 0.0, y,
                               0.0, 1.0);
    double dx = __enzyme_fwddiff((void *)f2d, x, 1.0, y, 0.0);
    double dy = __enzyme_fwddiff((void *)f2d, x, 0.0, y, 1.0);
    CHECK_CLOSE(r.d[0], dx, FWD_TOL_EXACT);
    CHECK_CLOSE(r.d[1], dy, FWD_TOL_EXACT);
    CHECK_CLOSE(dx,
                y * cos(x * y) + exp(x - y) * y + 3 * x * x / (1 + y * y),
                FWD_TOL_EXACT);
    CHECK_CLOSE(dy,
                x * cos(x * y) + exp(x - y) * (1 - y) -
                    pow(x, 3.0) * 2 * y / ((1 + y * y) * (1 + y * y)),
                FWD_TOL_EXACT);
  }
  /* width 2 through pointers */
  {
    double x[NX], d0[NX], d1[NX];
    memcpy(x, X0, sizeof x);
    for (int i = 0; i < NX; ++i) {
      d0[i] = dir(0, i);
      d1[i] = dir(1, i);
    }
    d2 r = __enzyme_fwddiff_w2((void *)mixed, enzyme_width, 2, enzyme_dup, x,
                               d0, d1, NX);
    CHECK_CLOSE(r.d[0], __enzyme_fwddiff((void *)mixed, x, d0, NX),
                FWD_TOL_EXACT);
    CHECK_CLOSE(r.d[1], __enzyme_fwddiff((void *)mixed, x, d1, NX),
                FWD_TOL_EXACT);
    /* shadows of the input are not written */
    CHECK_CLOSE(d0[2], dir(0, 2), 0);
    /* with the primal */
    pd2 p = __enzyme_fwddiff_pw2((void *)mixed, enzyme_width, 2,
                                 enzyme_primal_return, x, d0, d1, NX);
    CHECK_CLOSE(p.primal, mixed(x, NX), FWD_TOL_EXACT);
    CHECK_CLOSE(p.d[0], r.d[0], FWD_TOL_EXACT);
    CHECK_CLOSE(p.d[1], r.d[1], FWD_TOL_EXACT);
  }
  /* width 3 and 4 through pointers: results wider than 16 bytes */
  {
    double x[NX], dx[4][NX];
    memcpy(x, X0, sizeof x);
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < NX; ++i)
        dx[k][i] = dir(k, i);
    d4 r4 = __enzyme_fwddiff_w4((void *)mixed, enzyme_width, 4, x, dx[0], dx[1],
                                dx[2], dx[3], NX);
    d3 r3 = __enzyme_fwddiff_w3((void *)mixed, enzyme_width, 3, x, dx[3], dx[2],
                                dx[1], NX);
    for (int k = 0; k < 4; ++k) {
      double want = __enzyme_fwddiff((void *)mixed, x, dx[k], NX);
      CHECK_CLOSE(r4.d[k], want, FWD_TOL_EXACT);
      if (k > 0)
        CHECK_CLOSE(r3.d[3 - k], want, FWD_TOL_EXACT);
    }
  }
  /* width 4 and width 2 through shadow outputs (void function) */
  {
    double x[NX], out[NX], dx[4][NX], dout[4][NX];
    memcpy(x, X0, sizeof x);
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < NX; ++i) {
        dx[k][i] = dir(k, i);
        dout[k][i] = 0;
      }
    __enzyme_fwddiff_void((void *)outputs, enzyme_width, 4, x, dx[0], dx[1],
                          dx[2], dx[3], out, dout[0], dout[1], dout[2],
                          dout[3], NX);
    double ref[NX];
    outputs(x, ref, NX);
    for (int i = 0; i < NX; ++i)
      CHECK_CLOSE(out[i], ref[i], FWD_TOL_EXACT);
    for (int k = 0; k < 4; ++k) {
      double o1[NX], do1[NX] = {0};
      __enzyme_fwddiff_void((void *)outputs, x, dx[k], o1, do1, NX);
      for (int i = 0; i < NX; ++i)
        CHECK_CLOSE(dout[k][i], do1[i], FWD_TOL_EXACT);
    }
    /* width 2, output shadows only (dupnoneed) */
    double e0[NX] = {0}, e1[NX] = {0}, o2[NX];
    __enzyme_fwddiff_void((void *)outputs, enzyme_width, 2, x, dx[2], dx[3],
                          enzyme_dupnoneed, o2, e0, e1, NX);
    for (int i = 0; i < NX; ++i) {
      CHECK_CLOSE(e0[i], dout[2][i], FWD_TOL_EXACT);
      CHECK_CLOSE(e1[i], dout[3][i], FWD_TOL_EXACT);
    }
    /* closed form for lane 0, element 0: out0 = x0 x1 x0 + cos(x0 x1) */
    double a = x[0] * x[1], da = dx[0][0] * x[1] + x[0] * dx[0][1];
    CHECK_CLOSE(dout[0][0], da * x[0] + a * dx[0][0] - sin(a) * da,
                FWD_TOL_EXACT);
  }
  /* libm, width 2 in double and width 4 in float */
#define CHECK_LIBM(name)                                                       \
  {                                                                            \
    double x = 0.43, a = __enzyme_fwddiff((void *)w_##name, x, 1.0);           \
    d2 r = __enzyme_fwddiff_w2((void *)w_##name, enzyme_width, 2, x, -1.5,     \
                               -0.5);                                          \
    CHECK_CLOSE(r.d[0], -1.5 * a, FWD_TOL_EXACT);                              \
    CHECK_CLOSE(r.d[1], -0.5 * a, FWD_TOL_EXACT);                              \
    float b = __enzyme_fwddiff_f((void *)wf_##name, 0.43f, 1.0f);              \
    f4 q = __enzyme_fwddiff_w4f((void *)wf_##name, enzyme_width, 4, 0.43f,     \
                                -1.5f, -0.5f, 0.5f, 1.5f);                     \
    for (int k = 0; k < 4; ++k)                                                \
      CHECK_CLOSE(q.f[k], (k - 1.5) * b, 1e-6);                                \
  }
  UNARY(CHECK_LIBM)
  {
    double a = __enzyme_fwddiff((void *)w_acosh, 1.37, 1.0);
    d4 r = __enzyme_fwddiff_w4((void *)w_acosh, enzyme_width, 4, 1.37, -1.5,
                               -0.5, 0.5, 1.5);
    for (int k = 0; k < 4; ++k)
      CHECK_CLOSE(r.d[k], (k - 1.5) * a, FWD_TOL_EXACT);
  }
  /* float: width 4 and width 2 */
  {
    float x = 0.7f, y = 1.3f;
    f4 r = __enzyme_fwddiff_w4f((void *)ff, enzyme_width, 4, x, 1.0f, 0.0f,
                                1.0f, 2.0f, y, 0.0f, 1.0f, -1.0f, 0.5f);
    float dx = __enzyme_fwddiff_f((void *)ff, x, 1.0f, y, 0.0f);
    float dy = __enzyme_fwddiff_f((void *)ff, x, 0.0f, y, 1.0f);
    CHECK_CLOSE(dx, 2.0 * x * y + cos((double)x) * exp(-(double)y), 1e-6);
    CHECK_CLOSE(dy, (double)x * x - sin((double)x) * exp(-(double)y), 1e-6);
    CHECK_CLOSE(r.f[0], dx, 1e-6);
    CHECK_CLOSE(r.f[1], dy, 1e-6);
    CHECK_CLOSE(r.f[2], dx - dy, 1e-6);
    CHECK_CLOSE(r.f[3], 2 * dx + 0.5 * dy, 1e-6);
    f2 s = __enzyme_fwddiff_w2f((void *)ff, enzyme_width, 2, x, 1.0f, 0.0f, y,
                                0.0f, 1.0f);
    CHECK_CLOSE(s.f[0], dx, 1e-6);
    CHECK_CLOSE(s.f[1], dy, 1e-6);
  }
  return check_finish();
}
