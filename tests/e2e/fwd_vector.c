/* Forward mode through loops the vectorizers turn into SIMD IR at -O2/-O3
 * (elementwise updates in place, reductions made reassociable with
 * '#pragma clang fp reassociate', math calls with vector variants, float
 * loops) and through explicit vector types (vector IR at every level). */
#include "fwd_check.h"

void __enzyme_fwddiff_void(void *, ...);
float __enzyme_fwddiff_f(void *, ...);

#define N 103 /* not a multiple of the vector width: remainder loop too */

/* y <- a x + y, in place */
static void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

/* elementwise nonlinear map, separate output */
static void emap(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = sqrt(x[i] * x[i] + 1.0) * x[i] - fabs(x[i]) + fmax(x[i], 0.0);
}

/* reductions: vectorized with reassociation */
static double dot(const double *x, const double *y, int n) {
#pragma clang fp reassociate(on)
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
static double sumsq_max(const double *x, int n) {
#pragma clang fp reassociate(on)
  double s = 0, m = -1e300;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    m = x[i] > m ? x[i] : m;
  }
  return s + 3 * m;
}
/* in-order reduction (not reassociable) with a conditional */
static double relu_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] > 0 ? x[i] * x[i] : 0.5 * x[i];
  return s;
}

/* float loop: 4 or 8 lanes */
static float saxpy_sum(float a, const float *x, float *y, int n) {
#pragma clang fp reassociate(on)
  float s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i] * y[i];
    s += y[i];
  }
  return s;
}

/* stencil: reads neighbours, writes a separate array */
static void stencil(const double *u, double *v, int n) {
  for (int i = 1; i < n - 1; ++i)
    v[i] = u[i - 1] - 2 * u[i] + u[i + 1] + u[i] * u[i] * 0.25;
}

/* explicit vector types */
typedef double v4d __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));
static double vec_explicit(const double *p) {
  v4d a = {p[0], p[1], p[2], p[3]};
  v4d b = a * a + (v4d){1, 2, 3, 4} * a;
  b = b / (a + 5);
  return b[0] + b[1] + b[2] + b[3];
}
/* clang's elementwise builtins: llvm.sqrt/exp/fma/fabs on vectors */
static double vec_builtins(const double *p) {
  v4d a = {p[0], p[1], p[2], p[3]};
  v4d b = a * a;
  v4d r = __builtin_elementwise_sqrt(b + 1) + __builtin_elementwise_exp(a) +
          __builtin_elementwise_fma(a, b, a) + __builtin_elementwise_abs(a);
  return r[0] + r[1] + r[2] + r[3];
}
static float vec_explicit_f(float x) {
  v4f a = {x, 2 * x, x * x, 1.0f};
  v4f b = a * a - a;
  return b[0] + b[1] + b[2] + b[3];
}

/* finite differences along p0 + t dp */
static double g_x[N], g_dx[N], g_y[N], g_dy[N];
static double dot_line(double t) {
  double x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = g_x[i] + t * g_dx[i];
    y[i] = g_y[i] + t * g_dy[i];
  }
  return dot(x, y, N);
}
static double sumsq_line(double t) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = g_x[i] + t * g_dx[i];
  return sumsq_max(x, N);
}
static double relu_line(double t) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = g_x[i] + t * g_dx[i];
  return relu_sum(x, N);
}
static double vec_line(double t) {
  double p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = g_x[i] + t * g_dx[i];
  return vec_explicit(p);
}
static double vec_builtins_line(double t) {
  double p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = g_x[i] + t * g_dx[i];
  return vec_builtins(p);
}

int main(void) {
  double x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; ++i) {
    x[i] = g_x[i] = sin(0.37 * i) * 1.5 + 0.05; /* never 0: kinks */
    dx[i] = g_dx[i] = cos(0.11 * i);
    y[i] = g_y[i] = 0.01 * i - 0.4;
    dy[i] = g_dy[i] = 1.0 / (1 + i);
  }

  /* axpy: dy_i += da x_i + a dx_i */
  {
    double a = 0.7, da = -1.5, yy[N], dyy[N];
    for (int i = 0; i < N; ++i) {
      yy[i] = y[i];
      dyy[i] = dy[i];
    }
    __enzyme_fwddiff_void((void *)axpy, a, da, x, dx, yy, dyy, N);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(yy[i], a * x[i] + y[i], FWD_TOL_EXACT);
      CHECK_CLOSE(dyy[i], da * x[i] + a * dx[i] + dy[i], FWD_TOL_EXACT);
    }
  }
  /* elementwise map */
  {
    double out[N], dout[N];
    __enzyme_fwddiff_void((void *)emap, x, dx, out, dout, N);
    for (int i = 0; i < N; ++i) {
      double v = x[i], r = sqrt(v * v + 1);
      double want = (r + v * v / r - (v < 0 ? -1 : 1) + (v > 0 ? 1 : 0)) * dx[i];
      CHECK_CLOSE(dout[i], want, FWD_TOL_EXACT);
    }
  }
  /* reductions */
  {
    double want = 0;
    for (int i = 0; i < N; ++i)
      want += dx[i] * y[i] + x[i] * dy[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)dot, x, dx, y, dy, N), want,
                  dot_line, 0.0);
    int im = 0;
    want = 0;
    for (int i = 0; i < N; ++i) {
      want += 2 * x[i] * dx[i];
      if (x[i] > x[im])
        im = i;
    }
    want += 3 * dx[im];
    CHECK_TANGENT(__enzyme_fwddiff((void *)sumsq_max, x, dx, N), want,
                  sumsq_line, 0.0);
    want = 0;
    for (int i = 0; i < N; ++i)
      want += (x[i] > 0 ? 2 * x[i] : 0.5) * dx[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)relu_sum, x, dx, N), want,
                  relu_line, 0.0);
  }
  /* float loop */
  {
    float xf[N], dxf[N], yf[N], dyf[N];
    double want = 0;
    for (int i = 0; i < N; ++i) {
      xf[i] = (float)x[i];
      dxf[i] = (float)dx[i];
      yf[i] = (float)y[i];
      dyf[i] = (float)dy[i];
    }
    float a = 1.25f, da = 0.5f;
    for (int i = 0; i < N; ++i)
      want += (double)da * xf[i] + (double)a * dxf[i] + 2.0 * yf[i] * dyf[i];
    float got = __enzyme_fwddiff_f((void *)saxpy_sum, a, da, xf, dxf, yf, dyf, N);
    CHECK_CLOSE(got, want, 1e-5);
    for (int i = 0; i < N; ++i) {
      double yi = (float)y[i];
      CHECK_CLOSE(yf[i], 1.25 * xf[i] + yi * yi, 1e-6);
      CHECK_CLOSE(dyf[i], 0.5 * xf[i] + 1.25 * dx[i] + 2 * yi * dy[i], 1e-5);
    }
  }
  /* stencil */
  {
    double v[N] = {0}, dv[N] = {0};
    __enzyme_fwddiff_void((void *)stencil, x, dx, v, dv, N);
    for (int i = 1; i < N - 1; ++i)
      CHECK_CLOSE(dv[i],
                  dx[i - 1] - 2 * dx[i] + dx[i + 1] + 0.5 * x[i] * dx[i],
                  FWD_TOL_EXACT);
    CHECK_CLOSE(dv[0], 0.0, 0);
    CHECK_CLOSE(dv[N - 1], 0.0, 0);
  }
  /* explicit vectors */
  {
    double want = 0;
    for (int i = 0; i < 4; ++i) {
      double a = x[i], q = a * a + (i + 1) * a, dq = 2 * a + (i + 1);
      want += (dq * (a + 5) - q) / ((a + 5) * (a + 5)) * dx[i];
    }
    CHECK_TANGENT(__enzyme_fwddiff((void *)vec_explicit, x, dx), want,
                  vec_line, 0.0);
    want = 0;
    for (int i = 0; i < 4; ++i) {
      double a = x[i];
      want += (a / sqrt(a * a + 1) + exp(a) + 3 * a * a + 1 +
               (a < 0 ? -1 : 1)) * dx[i];
    }
    CHECK_TANGENT(__enzyme_fwddiff((void *)vec_builtins, x, dx), want,
                  vec_builtins_line, 0.0);
    float xf = 0.8f;
    /* x^2 - x + 4x^2 - 2x + x^4 - x^2 + 0 */
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)vec_explicit_f, xf, 1.0f),
                8.0 * xf - 3 + 4.0 * xf * xf * xf, 1e-6);
  }
  return check_finish();
}
