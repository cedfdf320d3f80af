/* Dot-product tests, reverse against forward: for random x, direction v
 * and output weights w, <w, J v> from __enzyme_fwddiff equals
 * <J^T w, v> from __enzyme_autodiff.  Scalar functions (w = 1) and vector
 * functions (outputs through a duplicated pointer): Rosenbrock, log-sum-exp,
 * a two-layer tanh network, bubble sort then weights (data-dependent
 * swaps), an RK4 integrator with state overwritten, a polynomial through
 * noinline calls, a heap-allocated work array, and a finite-volume
 * stencil.  Each scalar gradient is also checked against central
 * differences. */
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

#define N 6
#define TRIALS 4

static double rosen(const double *x) {
  double f = 0;
  for (int i = 0; i + 1 < N; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

static double lse(const double *x) {
  double m = x[0];
  for (int i = 1; i < N; ++i)
    if (x[i] > m)
      m = x[i];
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += exp(x[i] - m);
  return m + log(s);
}

/* 6 inputs -> 3 hidden (tanh) -> 1, weights from a fixed table */
static const double W1[3][N] = {{0.1, -0.3, 0.5, 0.2, -0.1, 0.4},
                                {-0.2, 0.4, 0.1, -0.5, 0.3, 0.2},
                                {0.3, 0.1, -0.4, 0.2, 0.5, -0.3}};
static double mlp(const double *x) {
  double h[3];
  for (int j = 0; j < 3; ++j) {
    double z = 0.1 * j;
    for (int i = 0; i < N; ++i)
      z += W1[j][i] * x[i];
    h[j] = tanh(z);
  }
  return 0.7 * h[0] - 1.1 * h[1] + 0.4 * h[2] * h[2];
}

static double sorted(const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j + 1 < N - i; ++j)
      if (y[j] > y[j + 1]) {
        double t = y[j];
        y[j] = y[j + 1];
        y[j + 1] = t;
      }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (i + 1) * y[i] * y[i];
  return s;
}

/* RK4 for y' = -y^2 + sin(t y), two components coupled */
static void rhs(const double *y, double t, double *f) {
  f[0] = -y[0] * y[1] + sin(t * y[0]);
  f[1] = y[0] - 0.5 * y[1] * y[1];
}
static double rk4(const double *x) {
  double y[2] = {x[0], x[1]}, h = x[2] * 0.01, k1[2], k2[2], k3[2], k4[2],
         tmp[2];
  double t = 0;
  for (int s = 0; s < 50; ++s) {
    rhs(y, t, k1);
    for (int i = 0; i < 2; ++i)
      tmp[i] = y[i] + 0.5 * h * k1[i];
    rhs(tmp, t + 0.5 * h, k2);
    for (int i = 0; i < 2; ++i)
      tmp[i] = y[i] + 0.5 * h * k2[i];
    rhs(tmp, t + 0.5 * h, k3);
    for (int i = 0; i < 2; ++i)
      tmp[i] = y[i] + h * k3[i];
    rhs(tmp, t + h, k4);
    for (int i = 0; i < 2; ++i)
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    t += h;
  }
  return y[0] * x[3] + y[1] * x[4] * x[5];
}

__attribute__((noinline)) double horner(const double *c, int n, double t) {
  double r = 0;
  for (int i = n - 1; i >= 0; --i)
    r = r * t + c[i];
  return r;
}
static double polys(const double *x) {
  return horner(x, N, 0.7) * horner(x + 1, N - 1, -1.3) + horner(x, 3, x[5]);
}

static double heapwork(const double *x) {
  double *w = (double *)malloc(2 * N * sizeof(double));
  for (int i = 0; i < N; ++i) {
    w[i] = exp(0.3 * x[i]);
    w[N + i] = x[i] * w[i];
  }
  double s = 0;
  for (int i = 0; i < 2 * N; ++i)
    s += w[i] * w[(i + 3) % (2 * N)];
  free(w);
  return s;
}

/* vector functions: y = F(x) */
static void stencil(const double *x, double *y) {
  for (int i = 0; i < N; ++i) {
    double l = x[(i + N - 1) % N], r = x[(i + 1) % N];
    y[i] = x[i] * x[i] * (l - r) + sqrt(1 + l * l) * 0.1;
  }
}
static void softmax(const double *x, double *y) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (y[i] = exp(x[i]));
  for (int i = 0; i < N; ++i)
    y[i] /= s;
}

int main(void) {
  for (int t = 0; t < TRIALS; ++t) {
    double x[N], v[N];
    for (int i = 0; i < N; ++i) {
      x[i] = rev_rand();
      v[i] = rev_rand();
    }
#define ONE(f)                                                                 \
  do {                                                                         \
    double g[N] = {0};                                                         \
    __enzyme_autodiff((void *)f, x, g);                                        \
    CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)f, x, v));                     \
    rev_check_grad(__FILE__, __LINE__, #f, f, x, N, g, NULL, 1e-5);            \
  } while (0)
    ONE(rosen);
    ONE(lse);
    ONE(mlp);
    ONE(sorted);
    ONE(rk4);
    ONE(polys);
    ONE(heapwork);
  }
  /* vector functions: <w, J v> == <J^T w, v> */
  for (int t = 0; t < TRIALS; ++t) {
    double x[N], v[N], w[N], wcopy[N], y[N], ydot[N], xbar[N] = {0};
    for (int i = 0; i < N; ++i) {
      x[i] = rev_rand();
      v[i] = rev_rand();
      w[i] = rev_rand();
    }
#define VEC(F)                                                                 \
  do {                                                                         \
    memset(xbar, 0, sizeof xbar);                                              \
    memcpy(wcopy, w, sizeof w);                                                \
    __enzyme_fwddiff_void((void *)F, x, v, y, ydot);                           \
    __enzyme_autodiff_void((void *)F, x, xbar, y, wcopy);                      \
    double lhs = 0, rhs_ = 0;                                                  \
    for (int i = 0; i < N; ++i) {                                              \
      lhs += w[i] * ydot[i];                                                   \
      rhs_ += xbar[i] * v[i];                                                  \
    }                                                                          \
    CHECK_CLOSE(rhs_, lhs, REV_TOL_DOT);                                       \
  } while (0)
    VEC(stencil);
    VEC(softmax);
  }
  return check_finish();
}
