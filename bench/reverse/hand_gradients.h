/*===- hand_gradients.h - the hand-written gradients of the kernels ===*
 *
 * Part of reverse_bench.c, which includes it after bench/common/kernels.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_HAND_GRADIENTS_H
#define ADCC_BENCH_HAND_GRADIENTS_H

/* Each computes what the __enzyme_autodiff call computes (the primal's
 * array outputs and the gradient of L), written as one would by hand: the
 * gradient is stored, not added, and kernels that overwrite their state
 * keep the states they need in scratch arrays allocated once (the
 * equivalent of a tape that is reused from call to call). */

static void dot_hgrad(const double *restrict x, const double *restrict y,
                      double *restrict gx, double *restrict gy, int n) {
  for (int i = 0; i < n; i++) {
    gx[i] = y[i];
    gy[i] = x[i];
  }
}

static void sumsq_hgrad(const double *restrict x, double *restrict g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 2.0 * x[i];
}

/* n >= 2 */
static void rosenbrock_hgrad(const double *restrict x, double *restrict g,
                             int n) {
  /* term i (x[i], x[i+1]): d/dx[i] = -400 t x[i] - 2 u, d/dx[i+1] = 200 t */
  double t = x[1] - x[0] * x[0];
  g[0] = -400.0 * t * x[0] - 2.0 * (1.0 - x[0]);
  for (int i = 1; i + 1 < n; i++) {
    double tp = t;
    t = x[i + 1] - x[i] * x[i];
    g[i] = 200.0 * tp - 400.0 * t * x[i] - 2.0 * (1.0 - x[i]);
  }
  g[n - 1] = 200.0 * t;
}

static void logsumexp_hgrad(const double *restrict x, double *restrict g,
                            int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; i++) {
    g[i] = exp(x[i] - m);
    s += g[i];
  }
  double r = 1.0 / s;
  for (int i = 0; i < n; i++)
    g[i] *= r;
}

/* y = A x and gx = A^T w in one pass over A. */
static void matvec_hgrad(const double *restrict A, const double *restrict x,
                         const double *restrict w, double *restrict y,
                         double *restrict gx, int n) {
  for (int j = 0; j < n; j++)
    gx[j] = 0;
  for (int i = 0; i < n; i++) {
    double s = 0, wi = w[i];
    for (int j = 0; j < n; j++) {
      double a = A[(long)i * n + j];
      s += a * x[j];
      gx[j] += wi * a;
    }
    y[i] = s;
  }
}

/* C = A B and gA = W B^T, row by row. */
static void matmul_hgrad(const double *restrict A, const double *restrict B,
                         const double *restrict W, double *restrict C,
                         double *restrict gA, int n) {
  for (int i = 0; i < n; i++) {
    double *restrict c = C + (long)i * n;
    const double *restrict w = W + (long)i * n;
    for (int j = 0; j < n; j++)
      c[j] = 0;
    for (int k = 0; k < n; k++) {
      double a = A[(long)i * n + k], s = 0;
      const double *restrict b = B + (long)k * n;
      for (int j = 0; j < n; j++) {
        c[j] += a * b[j];
        s += w[j] * b[j];
      }
      gA[(long)i * n + k] = s;
    }
  }
}

/* The stencils and their adjoints as half-steps X_{k+1} = F(X_k).  The
 * boundary values of every X_k are those of u0, so the adjoints of the
 * boundary are summed apart (bacc) and the interior adjoints (lo, li) keep
 * a zero boundary. */
static void heat_half(const double *restrict in, double *restrict out, int n) {
  out[0] = in[0];
  out[n - 1] = in[n - 1];
  for (int i = 1; i < n - 1; i++)
    out[i] = in[i] + HEAT_R * (in[i - 1] - 2.0 * in[i] + in[i + 1]) -
             HEAT_C * in[i] * in[i] * in[i];
}

static void heat_half_adj(const double *restrict in, const double *restrict lo,
                          double *restrict li, double *restrict bacc, int n) {
  li[0] = li[n - 1] = 0;
  for (int i = 1; i < n - 1; i++) {
    double v = in[i];
    li[i] = lo[i] * (1.0 - 2.0 * HEAT_R - 3.0 * HEAT_C * v * v) +
            HEAT_R * (lo[i - 1] + lo[i + 1]);
  }
  bacc[0] += HEAT_R * lo[1];
  bacc[1] += HEAT_R * lo[n - 2];
}

/* traj: 2*steps-2 states of n; l0, l1: n each; n >= 3, steps >= 1 */
static void heat1d_hgrad(const double *restrict u0, const double *restrict W,
                         double *restrict u, double *restrict w,
                         double *restrict g, int n, int steps,
                         double *restrict traj, double *restrict l0,
                         double *restrict l1) {
  int hs = 2 * steps;
  const double *in = u0;
  for (int k = 0; k < hs; k++) {
    double *out = k == hs - 1 ? u : k == hs - 2 ? w : traj + (long)k * n;
    heat_half(in, out, n);
    in = out;
  }
  double bacc[2] = {W[0], W[n - 1]}, *lo = l0, *li = l1;
  lo[0] = lo[n - 1] = 0;
  for (int i = 1; i < n - 1; i++)
    lo[i] = W[i];
  for (int k = hs - 1; k >= 0; k--) {
    const double *x = k == 0 ? u0 : k == hs - 1 ? w : traj + (long)(k - 1) * n;
    double *dst = k == 0 ? g : li;
    heat_half_adj(x, lo, dst, bacc, n);
    li = lo;
    lo = dst;
  }
  g[0] = bacc[0];
  g[n - 1] = bacc[1];
}

static void st_half(const double *restrict in, double *restrict out, int n) {
  memcpy(out, in, n * sizeof *in);
  memcpy(out + (long)(n - 1) * n, in + (long)(n - 1) * n, n * sizeof *in);
  for (int i = 1; i < n - 1; i++) {
    out[(long)i * n] = in[(long)i * n];
    out[(long)i * n + n - 1] = in[(long)i * n + n - 1];
  }
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      long c = (long)i * n + j;
      double v = in[c];
      out[c] = v + ST_R * (in[c - n] + in[c + n] + in[c - 1] + in[c + 1] -
                           4 * v) -
               ST_C * v * v * v;
    }
}

static void st_half_adj(const double *restrict in, const double *restrict lo,
                        double *restrict li, double *restrict bacc, int n) {
  memset(li, 0, n * sizeof *li);
  memset(li + (long)(n - 1) * n, 0, n * sizeof *li);
  for (int i = 1; i < n - 1; i++) {
    li[(long)i * n] = li[(long)i * n + n - 1] = 0;
    for (int j = 1; j < n - 1; j++) {
      long c = (long)i * n + j;
      double v = in[c];
      li[c] = lo[c] * (1.0 - 4.0 * ST_R - 3.0 * ST_C * v * v) +
              ST_R * (lo[c - n] + lo[c + n] + lo[c - 1] + lo[c + 1]);
    }
  }
  for (int j = 1; j < n - 1; j++) {
    bacc[j] += ST_R * lo[(long)n + j];
    bacc[(long)(n - 1) * n + j] += ST_R * lo[(long)(n - 2) * n + j];
  }
  for (int i = 1; i < n - 1; i++) {
    bacc[(long)i * n] += ST_R * lo[(long)i * n + 1];
    bacc[(long)i * n + n - 1] += ST_R * lo[(long)i * n + n - 2];
  }
}

/* traj: 2*steps-2 grids of n*n; l0, l1, bacc: n*n each; n >= 3 */
static void stencil2d_hgrad(const double *restrict u0, const double *restrict W,
                            double *restrict u, double *restrict w,
                            double *restrict g, int n, int steps,
                            double *restrict traj, double *restrict l0,
                            double *restrict l1, double *restrict bacc) {
  int hs = 2 * steps;
  long nn = (long)n * n;
  const double *in = u0;
  for (int k = 0; k < hs; k++) {
    double *out = k == hs - 1 ? u : k == hs - 2 ? w : traj + (long)k * nn;
    st_half(in, out, n);
    in = out;
  }
  double *lo = l0, *li = l1;
  for (long c = 0; c < nn; c++) {
    long i = c / n, j = c % n;
    int interior = i > 0 && i < n - 1 && j > 0 && j < n - 1;
    lo[c] = interior ? W[c] : 0;
    bacc[c] = interior ? 0 : W[c];
  }
  for (int k = hs - 1; k >= 0; k--) {
    const double *x =
        k == 0 ? u0 : k == hs - 1 ? w : traj + (long)(k - 1) * nn;
    double *dst = k == 0 ? g : li;
    st_half_adj(x, lo, dst, bacc, n);
    li = lo;
    lo = dst;
  }
  for (int j = 0; j < n; j++) {
    g[j] = bacc[j];
    g[(long)(n - 1) * n + j] = bacc[(long)(n - 1) * n + j];
  }
  for (int i = 1; i < n - 1; i++) {
    g[(long)i * n] = bacc[(long)i * n];
    g[(long)i * n + n - 1] = bacc[(long)i * n + n - 1];
  }
}

/* Adjoint of f = mm_rhs(k, y) for the adjoint l of f: ly = (df/dy)^T l
 * (stored), lk += (df/dk)^T l. */
static inline void mm_rhs_adj(const double *k, const double *y,
                              const double *l, double *ly, double *lk) {
  double lv1 = -l[0] - l[1] + l[2], lv2 = l[0] + l[1] - l[2],
         lv3 = l[0] - l[2] + l[3];
  lk[0] += lv1 * y[0] * y[1];
  lk[1] += lv2 * y[2];
  lk[2] += lv3 * y[2];
  ly[0] = lv1 * k[0] * y[1];
  ly[1] = lv1 * k[0] * y[0];
  ly[2] = lv2 * k[1] + lv3 * k[2];
  ly[3] = 0;
}

/* traj: 4*steps doubles (the state before each step); the stages are
 * recomputed in the reverse sweep. */
static void rk4_hgrad(const double *restrict k, const double *restrict y0,
                      const double *restrict W, double *restrict y,
                      double *restrict gk, double *restrict gy0, int steps,
                      double h, double *restrict traj) {
  double a[4], k1[4], k2[4], k3[4], k4[4];
  for (int i = 0; i < 4; i++)
    y[i] = y0[i];
  for (int s = 0; s < steps; s++) {
    memcpy(traj + 4 * (long)s, y, 4 * sizeof *y);
    mm_rhs(k, y, k1);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + 0.5 * h * k1[i];
    mm_rhs(k, a, k2);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + 0.5 * h * k2[i];
    mm_rhs(k, a, k3);
    for (int i = 0; i < 4; i++)
      a[i] = y[i] + h * k3[i];
    mm_rhs(k, a, k4);
    for (int i = 0; i < 4; i++)
      y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  double ly[4], lk[3] = {0, 0, 0};
  for (int i = 0; i < 4; i++)
    ly[i] = W[i];
  for (int s = steps - 1; s >= 0; s--) {
    const double *ys = traj + 4 * (long)s;
    double a2[4], a3[4], a4[4], l1[4], l2[4], l3[4], l4[4], la[4];
    mm_rhs(k, ys, k1);
    for (int i = 0; i < 4; i++)
      a2[i] = ys[i] + 0.5 * h * k1[i];
    mm_rhs(k, a2, k2);
    for (int i = 0; i < 4; i++)
      a3[i] = ys[i] + 0.5 * h * k2[i];
    mm_rhs(k, a3, k3);
    for (int i = 0; i < 4; i++)
      a4[i] = ys[i] + h * k3[i];
    for (int i = 0; i < 4; i++) {
      l1[i] = l4[i] = h / 6.0 * ly[i];
      l2[i] = l3[i] = h / 6.0 * 2.0 * ly[i];
    }
    mm_rhs_adj(k, a4, l4, la, lk);
    for (int i = 0; i < 4; i++) {
      ly[i] += la[i];
      l3[i] += h * la[i];
    }
    mm_rhs_adj(k, a3, l3, la, lk);
    for (int i = 0; i < 4; i++) {
      ly[i] += la[i];
      l2[i] += 0.5 * h * la[i];
    }
    mm_rhs_adj(k, a2, l2, la, lk);
    for (int i = 0; i < 4; i++) {
      ly[i] += la[i];
      l1[i] += 0.5 * h * la[i];
    }
    mm_rhs_adj(k, ys, l1, la, lk);
    for (int i = 0; i < 4; i++)
      ly[i] += la[i];
  }
  for (int i = 0; i < 4; i++)
    gy0[i] = ly[i];
  for (int i = 0; i < 3; i++)
    gk[i] = lk[i];
}

#endif /* ADCC_BENCH_HAND_GRADIENTS_H */
