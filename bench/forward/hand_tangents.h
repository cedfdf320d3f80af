/*===- hand_tangents.h - the hand-written tangents of the kernels ===*
 *
 * Part of forward_bench.c, which includes it after bench/common/kernels.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_HAND_TANGENTS_H
#define ADCC_BENCH_HAND_TANGENTS_H

static double dot_tan(const double *x, const double *dx, const double *y,
                      const double *dy, int n) {
  double ds = 0;
  for (int i = 0; i < n; i++)
    ds += dx[i] * y[i] + x[i] * dy[i];
  return ds;
}

static double sumsq_tan(const double *x, const double *dx, int n) {
  double ds = 0;
  for (int i = 0; i < n; i++)
    ds += 2.0 * x[i] * dx[i];
  return ds;
}

static double rosenbrock_tan(const double *x, const double *dx, int n) {
  double df = 0;
  for (int i = 0; i + 1 < n; i++) {
    double t = x[i + 1] - x[i] * x[i], u = 1.0 - x[i];
    double dt = dx[i + 1] - 2.0 * x[i] * dx[i];
    df += 200.0 * t * dt - 2.0 * u * dx[i];
  }
  return df;
}

static double logsumexp_tan(const double *x, const double *dx, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = x[i] > m ? x[i] : m;
  double s = 0, ds = 0;
  for (int i = 0; i < n; i++) {
    double e = exp(x[i] - m);
    s += e;
    ds += e * dx[i];
  }
  return ds / s;
}

static void matvec_tan(const double *restrict A, const double *restrict x,
                       const double *restrict dx, double *restrict y,
                       double *restrict dy, int n) {
  for (int i = 0; i < n; i++) {
    double s = 0, ds = 0;
    for (int j = 0; j < n; j++) {
      s += A[(long)i * n + j] * x[j];
      ds += A[(long)i * n + j] * dx[j];
    }
    y[i] = s;
    dy[i] = ds;
  }
}

static void matmul_tan(const double *restrict A, const double *restrict dA,
                       const double *restrict B, double *restrict C,
                       double *restrict dC, int n) {
  for (int i = 0; i < n; i++) {
    double *restrict c = C + (long)i * n, *restrict dc = dC + (long)i * n;
    for (int j = 0; j < n; j++)
      c[j] = dc[j] = 0;
    for (int k = 0; k < n; k++) {
      double a = A[(long)i * n + k], da = dA[(long)i * n + k];
      const double *restrict b = B + (long)k * n;
      for (int j = 0; j < n; j++) {
        c[j] += a * b[j];
        dc[j] += da * b[j];
      }
    }
  }
}

static void heat1d_tan(const double *restrict u0, const double *restrict du0,
                       double *restrict u, double *restrict du,
                       double *restrict w, double *restrict dw, int n,
                       int steps) {
  for (int i = 0; i < n; i++) {
    u[i] = u0[i];
    du[i] = du0[i];
  }
  w[0] = u[0];
  w[n - 1] = u[n - 1];
  dw[0] = du[0];
  dw[n - 1] = du[n - 1];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++) {
      double v = u[i];
      w[i] = v + HEAT_R * (u[i - 1] - 2.0 * v + u[i + 1]) - HEAT_C * v * v * v;
      dw[i] = du[i] + HEAT_R * (du[i - 1] - 2.0 * du[i] + du[i + 1]) -
              3.0 * HEAT_C * v * v * du[i];
    }
    for (int i = 1; i < n - 1; i++) {
      double v = w[i];
      u[i] = v + HEAT_R * (w[i - 1] - 2.0 * v + w[i + 1]) - HEAT_C * v * v * v;
      du[i] = dw[i] + HEAT_R * (dw[i - 1] - 2.0 * dw[i] + dw[i + 1]) -
              3.0 * HEAT_C * v * v * dw[i];
    }
  }
}

static void stencil2d_tan(const double *restrict u0,
                          const double *restrict du0, double *restrict u,
                          double *restrict du, double *restrict w,
                          double *restrict dw, int n, int steps) {
  for (long i = 0; i < (long)n * n; i++) {
    u[i] = w[i] = u0[i];
    du[i] = dw[i] = du0[i];
  }
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        long c = (long)i * n + j;
        double v = u[c], dv = du[c];
        w[c] = v + ST_R * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4 * v) -
               ST_C * v * v * v;
        double lap = du[c - n] + du[c + n] + du[c - 1] + du[c + 1] - 4 * dv;
        dw[c] = dv + ST_R * lap - 3.0 * ST_C * v * v * dv;
      }
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        long c = (long)i * n + j;
        double v = w[c], dv = dw[c];
        u[c] = v + ST_R * (w[c - n] + w[c + n] + w[c - 1] + w[c + 1] - 4 * v) -
               ST_C * v * v * v;
        double lap = dw[c - n] + dw[c + n] + dw[c - 1] + dw[c + 1] - 4 * dv;
        du[c] = dv + ST_R * lap - 3.0 * ST_C * v * v * dv;
      }
  }
}

static inline void mm_rhs_tan(const double *k, const double *dk,
                              const double *y, const double *dy, double *f,
                              double *df) {
  double v1 = k[0] * y[0] * y[1], v2 = k[1] * y[2], v3 = k[2] * y[2];
  double dv1 = dk[0] * y[0] * y[1] + k[0] * dy[0] * y[1] + k[0] * y[0] * dy[1];
  double dv2 = dk[1] * y[2] + k[1] * dy[2], dv3 = dk[2] * y[2] + k[2] * dy[2];
  f[0] = -v1 + v2 + v3;
  f[1] = -v1 + v2;
  f[2] = v1 - v2 - v3;
  f[3] = v3;
  df[0] = -dv1 + dv2 + dv3;
  df[1] = -dv1 + dv2;
  df[2] = dv1 - dv2 - dv3;
  df[3] = dv3;
}

static void rk4_tan(const double *restrict k, const double *restrict dk,
                    const double *restrict y0, const double *restrict dy0,
                    double *restrict y, double *restrict dy, int steps,
                    double h) {
  double a[4], k1[4], k2[4], k3[4], k4[4];
  double da[4], dk1[4], dk2[4], dk3[4], dk4[4];
  for (int i = 0; i < 4; i++) {
    y[i] = y0[i];
    dy[i] = dy0[i];
  }
  for (int s = 0; s < steps; s++) {
    mm_rhs_tan(k, dk, y, dy, k1, dk1);
    for (int i = 0; i < 4; i++) {
      a[i] = y[i] + 0.5 * h * k1[i];
      da[i] = dy[i] + 0.5 * h * dk1[i];
    }
    mm_rhs_tan(k, dk, a, da, k2, dk2);
    for (int i = 0; i < 4; i++) {
      a[i] = y[i] + 0.5 * h * k2[i];
      da[i] = dy[i] + 0.5 * h * dk2[i];
    }
    mm_rhs_tan(k, dk, a, da, k3, dk3);
    for (int i = 0; i < 4; i++) {
      a[i] = y[i] + h * k3[i];
      da[i] = dy[i] + h * dk3[i];
    }
    mm_rhs_tan(k, dk, a, da, k4, dk4);
    for (int i = 0; i < 4; i++) {
      y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
      dy[i] += h / 6.0 * (dk1[i] + 2.0 * dk2[i] + 2.0 * dk3[i] + dk4[i]);
    }
  }
}

#endif /* ADCC_BENCH_HAND_TANGENTS_H */
