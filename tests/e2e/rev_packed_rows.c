// The rows of a loop's array of records hold each record at its own size
// and alignment (reverse/LoopArrays.cpp, 2026-12-07): an i32 takes 4 bytes,
// an i1 1, a float 4, instead of an 8-byte granule each, and the exit
// records an inner loop adds to an outer loop's row (ExitArrays.cpp) are
// placed after the row's records at their alignment. Rows of floats and
// i32s, rows that mix i1, i32, float and double, rows widened with an
// i64 trip count after an i32: gradients against central differences and
// forward mode, and the float triangle against its analytic gradient,
// -O0 to -O3.
#include "check.h"

#include <math.h>
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define D 6
#define NL (D * (D - 1) / 2)
#define NX (D + NL)
#define NP 3

/* GMM's triangle in single precision over NP points: the scratch w is
   written again for each point, so w[j] and expf(x[j]) are recorded (4
   bytes each in the row), and li once per column (4 bytes in the column
   loop's row). */
__attribute__((noinline)) double tri_float(const double *v, int d) {
  const double *x = v, *l = v + d;
  float *w = malloc(d * sizeof(float)), *q = malloc(d * sizeof(float));
  double s = 0;
  for (int p = 0; p < NP; p++) {
    for (int j = 0; j < d; j++)
      w[j] = (float)x[j] - 0.25f * (float)p;
    for (int j = 0; j < d; j++)
      q[j] = expf(0.1f * (float)x[j]) * w[j];
    int li = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++)
        q[r] += (float)l[li++] * w[c];
    for (int j = 0; j < d; j++)
      s += (double)q[j] * (double)q[j];
  }
  free(w);
  free(q);
  return 0.5 * s;
}

static void tri_float_analytic(const double *v, int d, double *g) {
  const double *x = v, *l = v + d;
  for (int i = 0; i < d + d * (d - 1) / 2; i++)
    g[i] = 0;
  for (int p = 0; p < NP; p++) {
    double w[D], e[D], q[D];
    for (int j = 0; j < d; j++) {
      w[j] = x[j] - 0.25 * p;
      e[j] = exp(0.1 * x[j]);
      q[j] = e[j] * w[j];
    }
    int li = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++)
        q[r] += l[li++] * w[c];
    for (int j = 0; j < d; j++)
      g[j] += q[j] * e[j] * (1 + 0.1 * w[j]);
    li = 0;
    for (int c = 0; c < d; c++)
      for (int r = c + 1; r < d; r++) {
        g[c] += l[li] * q[r];
        g[d + li] += q[r] * w[c];
        li++;
      }
  }
}

/* Each iteration records a comparison (i1), a running integer that is not
   an induction variable (i32) and values of a scratch array written again
   by the next pass (float and double): one row holds all four. The inner
   loop's exits add its trip count (i64) after them. */
__attribute__((noinline)) double mixed(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  float *f = malloc(n * sizeof(float));
  double s = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < n; i++) {
      t[i] = x[i] * (pass + 1);
      f[i] = (float)(x[i] + pass);
    }
    int k = pass;
    for (int i = 0; i < n; i++) {
      double a = t[i] > 0.2 ? t[i] * t[i] : sin(t[i]);
      float b = f[i] * f[i];
      k = (k * 5 + i) % 7;
      int r = 0;
      for (; r < n; r++) {
        if (x[r] > 0.9 - 0.05 * k)
          break;
        s += a * x[r] * x[(r + k) % n];
      }
      s += a * b * (k + 1) + r * x[i];
    }
  }
  free(t);
  free(f);
  return s;
}

static double call(int which, const double *x) {
  return which == 0 ? tri_float(x, D) : mixed(x, D);
}

static void grad(int which, const double *x, double *g) {
  if (which == 0)
    __enzyme_autodiff((void *)tri_float, enzyme_dup, x, g, enzyme_const, D);
  else
    __enzyme_autodiff((void *)mixed, enzyme_dup, x, g, enzyme_const, D);
}

static double tangent(int which, const double *x, const double *dx) {
  if (which == 0)
    return __enzyme_fwddiff((void *)tri_float, enzyme_dup, x, dx, enzyme_const,
                            D);
  return __enzyme_fwddiff((void *)mixed, enzyme_dup, x, dx, enzyme_const, D);
}

int main(void) {
  double v[NX], want[NX];
  for (int i = 0; i < NX; i++)
    v[i] = 0.3 * ((i * 7) % 11) - 1.1;
  tri_float_analytic(v, D, want);
  for (int which = 0; which < 2; which++) {
    int nx = which == 0 ? NX : D;
    double g[NX] = {0};
    grad(which, v, g);
    for (int i = 0; i < nx; i++) {
      double vp[NX], vm[NX], dv[NX] = {0}, h = 1e-3;
      for (int k = 0; k < NX; k++)
        vp[k] = vm[k] = v[k];
      vp[i] += h;
      vm[i] -= h;
      dv[i] = 1;
      double fd = (call(which, vp) - call(which, vm)) / (2 * h);
      // (Both compute in single precision in part: the float triangle to
      // 1e-4 of its analytic gradient, differences with a step that keeps
      // float rounding small, forward against reverse to float rounding.)
      if (which == 0)
        CHECK_CLOSE(g[i], want[i], 1e-4);
      CHECK_CLOSE(g[i], fd, which == 0 ? 1e-2 : 1e-4);
      CHECK_CLOSE(tangent(which, v, dv), g[i], 1e-6);
    }
  }
  return check_finish();
}
