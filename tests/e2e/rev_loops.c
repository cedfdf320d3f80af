/* Reverse mode through long loops and loop-carried recurrences: 10^6
 * iterations of a scalar recurrence (the tape lives in the runtime), a
 * 10^6-iteration data-dependent while loop, a long loop over an array,
 * in-place recurrences that overwrite their inputs (x[i] = f(x[i-1], x[i])),
 * several sweeps over the same array, a prefix product, an explicit time
 * stepper that overwrites its state each step, and a triangular solve.
 * Closed forms (where they exist), central differences, forward mode. */
#include "rev_check.h"

#define LONG 1000000

/* logistic-like map, 10^6 steps; d/dx by the chain rule alongside */
static double longmap(double x, double r) {
  for (int i = 0; i < LONG; ++i)
    x = x + r * sin(x) * 1e-6;
  return x;
}
static double longmap_arr(const double *v) { return longmap(v[0], v[1]); }

/* a while loop whose count (about 10^6) depends on the input */
static double countdown(double x) {
  double s = 0;
  while (x > 0) {
    s += x * 1e-6;
    x -= 1e-6;
  }
  return s;
}

/* long loop over an array: 10^6 reads */
static double longsum(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < LONG; ++k)
    s += x[k % n] * x[(k + 1) % n] * 1e-6;
  return s;
}

/* in-place recurrence overwriting the input */
#define N 8
static void recur(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = sin(x[i - 1]) + x[i] * x[i - 1];
}
static double recur_sum(double *x, int n) {
  recur(x, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * (i + 1);
  return s;
}
static double recur_arr(const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  return recur_sum(y, N);
}

/* several sweeps: forward, then backward, each overwriting */
static double sweeps(double *x, int n) {
  for (int s = 0; s < 3; ++s) {
    for (int i = 1; i < n; ++i)
      x[i] = 0.5 * (x[i] + x[i - 1] * x[i - 1]);
    for (int i = n - 2; i >= 0; --i)
      x[i] = x[i] * cos(x[i + 1]);
  }
  return x[0] + x[n - 1];
}
static double sweeps_arr(const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  return sweeps(y, N);
}

/* prefix products in place */
static double prefix(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] *= x[i - 1];
  return x[n - 1];
}
static double prefix_arr(const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  return prefix(y, N);
}

/* explicit Euler on a damped pendulum, state overwritten each step */
static double pendulum(double *q, double k, int steps) {
  double dt = 1e-3;
  for (int s = 0; s < steps; ++s) {
    double a = -k * sin(q[0]) - 0.1 * q[1];
    q[0] += dt * q[1];
    q[1] += dt * a;
  }
  return q[0] * q[0] + q[1];
}
static double pendulum_arr(const double *v) {
  double q[2] = {v[0], v[1]};
  return pendulum(q, v[2], 20000);
}

/* forward substitution L y = b, L unit lower from x, y overwrites b */
static double trisolve(const double *L, double *b, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      b[i] -= L[i * n + j] * b[j];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += b[i] * b[i];
  return s;
}
#define M 4
static double g_L[M * M];
static double trisolve_b(const double *b) {
  double y[M];
  memcpy(y, b, sizeof y);
  return trisolve(g_L, y, M);
}
static double g_b[M];
static double trisolve_L(const double *L) {
  double y[M];
  memcpy(y, g_b, sizeof y);
  return trisolve(L, y, M);
}

int main(void) {
  {
    double v[2] = {0.4, 1.3};
    rev_two t = __enzyme_autodiff2((void *)longmap, v[0], v[1]);
    double g[2] = {t.a, t.b};
    /* chain rule alongside the primal */
    double x = v[0], dx = 1, dr = 0;
    for (int i = 0; i < LONG; ++i) {
      double s = sin(x), c = cos(x);
      dr = dr + (s + v[1] * c * dr) * 1e-6;
      dx = dx + v[1] * c * dx * 1e-6;
      x = x + v[1] * s * 1e-6;
    }
    double e[2] = {dx, dr};
    CHECK_GRAD_TOL(longmap_arr, v, 2, g, NULL, 1e-5);
    CHECK_CLOSE(g[0], e[0], 1e-9);
    CHECK_CLOSE(g[1], e[1], 1e-9);
    CHECK_CLOSE(0.3 * g[0] - 0.8 * g[1],
                __enzyme_fwddiff((void *)longmap, v[0], 0.3, v[1], -0.8),
                1e-12);
    /* and again: the tape was emptied */
    CHECK_CLOSE(__enzyme_autodiff((void *)longmap, v[0], enzyme_const, v[1]),
                e[0], 1e-9);
  }
  {
    /* d/dx of sum over the countdown: the count is piecewise constant, so
     * the derivative is the number of iterations times 1e-6 */
    double x = 0.75;
    int n = 0;
    for (double y = x; y > 0; y -= 1e-6)
      ++n;
    CHECK_CLOSE(__enzyme_autodiff((void *)countdown, x), n * 1e-6, 1e-9);
  }
  {
    double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0};
    __enzyme_autodiff((void *)longsum, x, dx, 3);
    /* each (i, i+1) pair appears LONG/3 times (+1 for the first ones) */
    double c[3] = {0};
    for (int k = 0; k < LONG; ++k) {
      c[k % 3] += x[(k + 1) % 3] * 1e-6;
      c[(k + 1) % 3] += x[k % 3] * 1e-6;
    }
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dx[i], c[i], 1e-9);
  }
  double x0[N] = {0.3, -0.2, 0.9, 1.1, -0.7, 0.05, 0.6, -1.0};
  {
    double y[N], dy[N] = {0};
    memcpy(y, x0, sizeof y);
    __enzyme_autodiff((void *)recur_sum, y, dy, N);
    double yy[N];
    memcpy(yy, x0, sizeof yy);
    recur(yy, N);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(y[i], yy[i], REV_TOL_EXACT); /* primal result kept */
    memcpy(y, x0, sizeof y);
    CHECK_GRAD(recur_arr, y, N, dy, NULL);
    {
      double v[N], z[N], dz[N];
      rev_dir(dy, v, N);
      memcpy(z, x0, sizeof z);
      memcpy(dz, v, sizeof dz); /* the tangent is updated in place */
      CHECK_DOT(dy, v, N, __enzyme_fwddiff((void *)recur_sum, z, dz, N));
    }
  }
  {
    double y[N], dy[N] = {0};
    memcpy(y, x0, sizeof y);
    __enzyme_autodiff((void *)sweeps, y, dy, N);
    memcpy(y, x0, sizeof y);
    CHECK_GRAD(sweeps_arr, y, N, dy, NULL);
    {
      double v[N], z[N], dz[N];
      rev_dir(dy, v, N);
      memcpy(z, x0, sizeof z);
      memcpy(dz, v, sizeof dz); /* the tangent is updated in place */
      CHECK_DOT(dy, v, N, __enzyme_fwddiff((void *)sweeps, z, dz, N));
    }
  }
  {
    double y[N], dy[N] = {0}, e[N];
    memcpy(y, x0, sizeof y);
    __enzyme_autodiff((void *)prefix, y, dy, N);
    memcpy(y, x0, sizeof y);
    double p = 1;
    for (int i = 0; i < N; ++i)
      p *= x0[i];
    for (int i = 0; i < N; ++i)
      e[i] = p / x0[i];
    CHECK_GRAD(prefix_arr, y, N, dy, e);
    {
      double v[N], z[N], dz[N];
      rev_dir(dy, v, N);
      memcpy(z, x0, sizeof z);
      memcpy(dz, v, sizeof dz); /* the tangent is updated in place */
      CHECK_DOT(dy, v, N, __enzyme_fwddiff((void *)prefix, z, dz, N));
    }
  }
  {
    double v[3] = {0.8, 0.1, 4.0};
    double q[2] = {v[0], v[1]}, dq[2] = {0};
    double dk = __enzyme_autodiff((void *)pendulum, q, dq, v[2], 20000);
    double g[3] = {dq[0], dq[1], dk};
    CHECK_GRAD_TOL(pendulum_arr, v, 3, g, NULL, 1e-5);
    {
      double w[3], z[2] = {v[0], v[1]};
      rev_dir(g, w, 3);
      double dz[2] = {w[0], w[1]};
      CHECK_DOT(g, w, 3,
                __enzyme_fwddiff((void *)pendulum, z, dz, v[2], w[2], 20000));
    }
  }
  {
    double L[M * M], dL[M * M] = {0}, b[M] = {1.0, -0.5, 2.0, 0.3}, db[M] = {0};
    for (int i = 0; i < M * M; ++i)
      L[i] = g_L[i] = 0.1 * ((i * 7) % 5) - 0.2;
    memcpy(g_b, b, sizeof b);
    double y[M];
    memcpy(y, b, sizeof y);
    __enzyme_autodiff((void *)trisolve, L, dL, y, db, M);
    CHECK_GRAD(trisolve_b, b, M, db, NULL);
    /* only the strictly lower part of L is read */
    for (int i = 0; i < M; ++i)
      for (int j = i; j < M; ++j)
        CHECK_CLOSE(dL[i * M + j], 0.0, REV_TOL_EXACT);
    CHECK_GRAD(trisolve_L, L, M * M, dL, NULL);
    {
      double vL[M * M], vb[M], y2[M];
      rev_dir(dL, vL, M * M);
      double s = rev_dir(db, vb, M);
      memcpy(y2, b, sizeof y2);
      for (int i = 0; i < M * M; ++i)
        s += dL[i] * vL[i];
      CHECK_CLOSE(s, __enzyme_fwddiff((void *)trisolve, L, vL, y2, vb, M),
                  REV_TOL_DOT);
    }
  }
  return check_finish();
}
