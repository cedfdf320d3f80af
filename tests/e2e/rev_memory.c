/* Reverse mode through memory: arrays and structs passed with enzyme_dup
 * (adjoints added into the shadows), structs holding pointers, arrays of
 * structs, stack arrays, values overwritten after use (the reverse sweep
 * needs the old value), outputs written through a duplicated pointer
 * (vector-Jacobian products), heap memory allocated and freed inside the
 * function (malloc, calloc, free), memcpy / memmove / memset, and shadows
 * that already hold values (accumulation).  Closed forms, central
 * differences and forward mode (dot-product tests). */
#include "rev_check.h"

#define N 5

/* sum of squares scaled by a const factor */
static double sumsq(const double *x, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c * x[i] * x[i];
  return s;
}
static double sumsq_arr(const double *x) { return sumsq(x, N, 1.5); }

/* structs */
typedef struct {
  double pos[3];
  double mass;
  int id;
} Body;
static double energy(const Body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        double t = b[i].pos[k] - b[j].pos[k];
        d2 += t * t;
      }
      e -= b[i].mass * b[j].mass / sqrt(d2);
    }
  return e;
}
static Body g_bodies[3];
static double energy_arr(const double *x) {
  Body b[3];
  memcpy(b, g_bodies, sizeof b);
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k)
      b[i].pos[k] = x[4 * i + k];
    b[i].mass = x[4 * i + 3];
  }
  return energy(b, 3);
}

/* a struct holding pointers: shadow struct holds the shadow pointers */
typedef struct {
  const double *a;
  const double *b;
  int n;
} Pair;
static double pair_dot(const Pair *p) {
  double s = 0;
  for (int i = 0; i < p->n; ++i)
    s += p->a[i] * p->b[i];
  return s;
}

/* overwritten after use: x[i] is read, then replaced, and read again */
static double overwrite(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double old = x[i];
    x[i] = sin(old) * old;
    s += x[i] * old;
    x[i] = x[i] * x[i];
  }
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}
static double overwrite_arr(const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  return overwrite(y, N);
}

/* outputs through a pointer: y = A x (nonlinear); adjoint gives y_bar^T J */
static void vecfun(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[2]) + x[0];
  y[2] = x[1] * x[1] * x[2];
}

/* stack array, then heap with malloc, calloc, memcpy, memmove, memset */
static double heap(const double *x, int n) {
  double tmp[8];
  for (int i = 0; i < n; ++i)
    tmp[i] = x[i] * x[i];
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)calloc(n + 2, sizeof(double));
  memcpy(a, tmp, n * sizeof(double));
  memcpy(b, x, n * sizeof(double));      /* b = x0 .. xn-1 0 0 */
  memmove(b + 1, b, n * sizeof(double)); /* b = x0 x0 .. xn-1 0 */
  double s = 0;
  for (int i = 0; i < n + 2; ++i)
    s += b[i] * (i < n ? a[i] : 1.0);
  memset(a, 0, n * sizeof(double));
  for (int i = 0; i < n; ++i)
    s += a[i] * x[i];
  free(a);
  free(b);
  return s;
}
static double heap_arr(const double *x) { return heap(x, N); }

/* overlapping memmove towards lower addresses */
static double shift_down(const double *x) {
  double b[3] = {x[0], x[1], x[2]};
  memmove(b, b + 1, 2 * sizeof(double)); /* b = x1 x2 x2 */
  return b[0] + 2 * b[1] + 4 * b[2];
}

/* the same array read through two pointers (aliasing) */
static double alias(const double *p, const double *q) {
  return p[0] * q[1] + p[1] * q[0];
}

/* a global constant table */
static const double coef[N] = {1.0, -2.0, 0.5, 3.0, 0.25};
static double table(const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += coef[i] * exp(x[i] * coef[i]);
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 2.0, -0.4};
  {
    double dx[N] = {0}, e[N];
    __enzyme_autodiff((void *)sumsq, x, dx, enzyme_const, N, 1.5);
    for (int i = 0; i < N; ++i)
      e[i] = 3.0 * x[i];
    CHECK_GRAD(sumsq_arr, x, N, dx, e);
    double v[N];
    rev_dir(dx, v, N);
    CHECK_DOT(dx, v, N, __enzyme_fwddiff((void *)sumsq, x, v, N, 1.5, 0.0));
    /* the shadow accumulates: a second call doubles it */
    __enzyme_autodiff((void *)sumsq, x, dx, enzyme_const, N, enzyme_const, 1.5);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(dx[i], 2 * e[i], REV_TOL_EXACT);
    /* c active as well: its adjoint is returned */
    double dx2[N] = {0};
    double dc = __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx2,
                                  enzyme_const, N, 1.5);
    CHECK_CLOSE(dc, sumsq(x, N, 1.0), REV_TOL_EXACT);
  }
  {
    Body b[3] = {
        {{0, 0, 0}, 1.0, 1}, {{1, 0.5, 0}, 2.0, 2}, {{0, 1.5, -1}, 0.5, 3}};
    Body db[3];
    memset(db, 0, sizeof db);
    memcpy(g_bodies, b, sizeof b);
    __enzyme_autodiff((void *)energy, b, db, enzyme_const, 3);
    double xv[12], g[12];
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        xv[4 * i + k] = b[i].pos[k];
        g[4 * i + k] = db[i].pos[k];
      }
      xv[4 * i + 3] = b[i].mass;
      g[4 * i + 3] = db[i].mass;
    }
    CHECK_GRAD(energy_arr, xv, 12, g, NULL);
    Body vb[3];
    memset(vb, 0, sizeof vb);
    double v[12];
    rev_dir(g, v, 12);
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k)
        vb[i].pos[k] = v[4 * i + k];
      vb[i].mass = v[4 * i + 3];
    }
    CHECK_DOT(g, v, 12, __enzyme_fwddiff((void *)energy, b, vb, 3));
    /* dE/dm0 = -(m1/r01 + m2/r02) */
    CHECK_CLOSE(db[0].mass, -(2.0 / sqrt(1.25) + 0.5 / sqrt(3.25)),
                REV_TOL_EXACT);
  }
  {
    double a[3] = {1, 2, 3}, b[3] = {-1, 0.5, 4}, da[3] = {0}, dbb[3] = {0};
    Pair p = {a, b, 3}, dp = {da, dbb, 0};
    __enzyme_autodiff((void *)pair_dot, &p, &dp);
    for (int i = 0; i < 3; ++i) {
      CHECK_CLOSE(da[i], b[i], REV_TOL_EXACT);
      CHECK_CLOSE(dbb[i], a[i], REV_TOL_EXACT);
    }
  }
  {
    double y[N], dy[N] = {0}, e[N];
    memcpy(y, x, sizeof y);
    __enzyme_autodiff((void *)overwrite, y, dy, N);
    for (int i = 0; i < N; ++i) {
      double o = x[i], s = sin(o), c = cos(o);
      /* s*o*o + (s*o)^2 */
      e[i] = (c * o + s) * o + s * o + 2 * s * o * (c * o + s);
      CHECK_CLOSE(y[i], (s * o) * (s * o), REV_TOL_EXACT); /* primal ran */
    }
    CHECK_GRAD(overwrite_arr, x, N, dy, e);
    double v[N], z[N], dz[N];
    rev_dir(dy, v, N);
    memcpy(z, x, sizeof z);
    memcpy(dz, v, sizeof dz);
    CHECK_DOT(dy, v, N, __enzyme_fwddiff((void *)overwrite, z, dz, N));
  }
  {
    double xv[3] = {0.5, -1.5, 2.0}, dxv[3] = {0}, y[3],
           ybar[3] = {1.0, -2.0, 0.5};
    __enzyme_autodiff_void((void *)vecfun, xv, dxv, y, ybar);
    double e[3] = {1.0 * xv[1] - 2.0, 1.0 * xv[0] + 0.5 * 2 * xv[1] * xv[2],
                   -2.0 * cos(xv[2]) + 0.5 * xv[1] * xv[1]};
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(dxv[i], e[i], REV_TOL_EXACT);
    CHECK_CLOSE(y[2], xv[1] * xv[1] * xv[2], REV_TOL_EXACT);
    /* the output shadow is consumed (zeroed) */
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(ybar[i], 0.0, REV_TOL_EXACT);
  }
  {
    double dx[N] = {0}, e[N];
    __enzyme_autodiff((void *)heap, x, dx, N);
    /* s = x0^3 + sum_{i>0} x_{i-1} x_i^2 + x_{n-1} (memmove towards higher
     * addresses) */
    for (int i = 0; i < N; ++i)
      e[i] = 2 * x[i] * (i ? x[i - 1] : x[0]) +
             (i + 1 < N ? x[i + 1] * x[i + 1] : 1) + (i == 0 ? x[0] * x[0] : 0);
    CHECK_GRAD(heap_arr, x, N, dx, e);
    double v[N];
    rev_dir(dx, v, N);
    CHECK_DOT(dx, v, N, __enzyme_fwddiff((void *)heap, x, v, N));
  }
  {
    double y[3] = {1, 2, 3}, dy[3] = {0}, e[3] = {0, 1, 6};
    __enzyme_autodiff((void *)shift_down, y, dy);
    CHECK_GRAD(shift_down, y, 3, dy, e);
  }
  {
    double p[2] = {1.5, -2.0}, dp[2] = {0};
    /* the same array and shadow for both arguments */
    __enzyme_autodiff((void *)alias, p, dp, p, dp);
    CHECK_CLOSE(dp[0], 2 * p[1], REV_TOL_EXACT);
    CHECK_CLOSE(dp[1], 2 * p[0], REV_TOL_EXACT);
  }
  {
    double dx[N] = {0}, e[N];
    __enzyme_autodiff((void *)table, x, dx);
    for (int i = 0; i < N; ++i)
      e[i] = coef[i] * coef[i] * exp(x[i] * coef[i]);
    CHECK_GRAD(table, x, N, dx, e);
    double v[N];
    rev_dir(dx, v, N);
    CHECK_DOT(dx, v, N, __enzyme_fwddiff((void *)table, x, v));
  }
  return check_finish();
}
