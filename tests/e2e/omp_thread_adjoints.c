/* Per-thread adjoints of OpenMP regions (docs/parallel.md, "Adjoint
 * updates of shared memory"): memory that a region only reads, at places
 * that do not depend on the iteration (a model's parameters, read by every
 * data point), gets its adjoints in a private copy per thread, added into
 * the shadow when the thread leaves the reverse region. Gradients against
 * central finite differences and tangents against gradients, with teams of
 * 1, 2 and 4 threads:
 *   mixture    parameters read by every point in inner loops (double);
 *   mixed      one array read at a fixed place and at the iteration's
 *              neighbours (the copy takes both);
 *   written    a region that writes the parameters it reads (a single
 *              block, then a loop): no copies, the reverse of the write
 *              must see every iteration's adjoint;
 *   held       the same write made by a function given a struct that
 *              holds the parameters' address (no copies either: until
 *              2026-12-06 the region took them, a wrong gradient);
 *   inlined    the same with the function inlined (always_inline, so at
 *              every level): the write goes through the pointer the struct
 *              holds (until 2026-12-06 the region took copies at -O1 and
 *              above, a wrong gradient);
 *   local      the same write into a local copy of the parameters whose
 *              address the struct holds (status.md's reduced case);
 *   copied     the struct copied (memcpy at -O0) before the region writes
 *              through the copy;
 *   nested     the inlined write in a region nested in a region (the
 *              variables found through the outer region's forks; until
 *              2026-12-06 copies were taken, a wrong gradient);
 *   deep       one struct's arrays read one and two pointers deep, the
 *              deeper one written through another struct (every read of
 *              the struct decides, not only the first);
 *   copies     structs copied out of a shared array by every iteration
 *              (a memcpy at -O0): the adjoints go back atomically (until
 *              2026-12-06 with plain adds, racing: e2e omp_packed failed
 *              one run in ten at -O0);
 *   fpairs     the same with pairs of floats, which -O1 and above copy as
 *              one 64-bit integer (its adjoint added atomically too; until
 *              2026-12-06 plainly, racing now and then);
 *   aliased    x read as the iteration's own element and through a struct
 *              that holds its address: atomic updates, not plain;
 *   far        two reads 1.6 MB apart (the copy would be too large: the
 *              runtime adds one of them atomically), analytic;
 *   floats     float parameters. */
#include "check.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { NP = 23, K = 4, D = 3, M = 3 * K + 1 };

/* A small mixture-like objective: every point reads all of p. */
double mixture(const double *p, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) {
    double best = 0;
    for (int k = 0; k < K; ++k) {
      double q = 0;
      for (int j = 0; j < D; ++j) {
        double d = x[i * D + j] - p[k * 3 + j % 3];
        q += d * d;
      }
      best += exp(p[3 * K] - 0.5 * q);
    }
    s += log(best);
  }
  return s;
}

/* p[0] at a fixed place and p[i], p[i + 1]. */
double mixed(const double *p, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 2)
  for (int i = 0; i < n - 1; ++i)
    s += sin(p[0] * x[i]) * p[i] + p[i + 1] * p[0];
  return s;
}

/* Writes p[1] in a single block, then every iteration reads p[0] and
 * p[1]: the region writes p, so its reads are atomic. */
double written(double *p, const double *x, int n) {
  double total = 0;
#pragma omp parallel
  {
#pragma omp single
    p[1] = p[0] * p[0] + p[1];
    double mine = 0;
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      mine += p[1] * x[i] + sin(p[0] * x[i]);
#pragma omp critical
    total += mine;
  }
  return total;
}

struct holder {
  double *p;
};
__attribute__((noinline)) static void bump(struct holder *h) {
  h->p[1] = h->p[0] * h->p[0] + h->p[1];
}

double held(double *p, const double *x, int n) {
  struct holder h = {p};
  double total = 0;
#pragma omp parallel
  {
#pragma omp single
    bump(&h);
    double mine = 0;
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      mine += p[1] * x[i] + sin(p[0] * x[i]);
#pragma omp critical
    total += mine;
  }
  return total;
}

__attribute__((always_inline)) static inline void
bump_inline(struct holder *h) {
  h->p[1] = h->p[0] * h->p[0] + h->p[1];
}

double inlined(double *p, const double *x, int n) {
  struct holder h = {p};
  double total = 0;
#pragma omp parallel
  {
#pragma omp single
    bump_inline(&h);
    double mine = 0;
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      mine += p[1] * x[i] + sin(p[0] * x[i]);
#pragma omp critical
    total += mine;
  }
  return total;
}

double local(double *p, const double *x, int n) {
  double q[2] = {p[0], p[1]};
  struct holder h = {q};
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    bump_inline(&h);
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += q[1] * x[i] + sin(q[0] * x[i]);
  }
  return s;
}

double copied(double *p, const double *x, int n) {
  struct holder h = {p};
  struct holder copy = h;
  double total = 0;
#pragma omp parallel
  {
#pragma omp single
    bump_inline(&copy);
    double mine = 0;
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
      mine += p[1] * x[i] + sin(p[0] * x[i]);
#pragma omp critical
    total += mine;
  }
  return total;
}

double nested(double *p, const double *x, int n) {
  double q[2] = {p[0], p[1]};
  struct holder h = {q};
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int k = 0; k < 2; ++k) {
    double t = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      h.p[k] = h.p[k] * h.p[k] + 1;
#pragma omp for reduction(+ : t)
      for (int i = 0; i < n; ++i)
        t += q[k] * x[i];
    }
    s += t;
  }
  return s;
}

struct inner {
  double *v;
};
struct model {
  double *w;
  struct inner *in;
};

double deep(double *p, const double *x, int n) {
  double w[1] = {p[1]}, v[1] = {p[0]};
  struct inner in = {v};
  struct model m = {w, &in};
  struct holder h = {v};
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    h.p[0] = h.p[0] * h.p[0] + 1;
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += m.w[0] * x[i] + m.in->v[0] * x[i] * x[i];
  }
  return s;
}

struct pair {
  double a, b;
};

double copies(double *p, const double *x, int n) {
  struct pair pr[2] = {{p[0], p[1]}, {p[1], p[0]}};
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 200 * n; ++i) {
    struct pair q = pr[i % 2];
    s += q.a * x[i % n] + q.b * q.b * 1e-3;
  }
  return s;
}

struct fpair {
  float a, b;
};

double fpairs(double *p, const double *x, int n) {
  struct fpair pr[2] = {{(float)p[0], (float)p[1]}, {(float)p[1], (float)p[0]}};
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 200 * n; ++i) {
    struct fpair q = pr[i % 2];
    /* (q stays in memory: the copy stays a copy) */
    struct fpair *volatile keep = &q;
    (void)keep;
    s += q.a * x[i % n] + q.b * q.b * 1e-3;
  }
  return s;
}

struct reader {
  const double *x;
};

double aliased(double *p, const double *x, int n) {
  struct reader r = {x};
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] * x[i] + r.x[0] * x[i] * p[1];
  return s;
}

typedef double (*objective)(double *, const double *, int);
typedef void (*gradient)(double *, double *, const double *, double *, int);
typedef double (*tangent)(double *, double *, const double *, double *,
                          int);

#define DERIVATIVES(f)                                                         \
  static double f##_(double *p, const double *x, int n) {                     \
    return f(p, x, n);                                                         \
  }                                                                            \
  static void gradient_##f(double *p, double *dp, const double *x,            \
                           double *dx, int n) {                                \
    __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_dup, x, dx,         \
                      enzyme_const, n);                                        \
  }                                                                            \
  static double tangent_##f(double *p, double *v, const double *x,            \
                            double *vx, int n) {                               \
    return __enzyme_fwddiff((void *)f, enzyme_dup, p, v, enzyme_dup, x, vx,    \
                            enzyme_const, n);                                  \
  }
DERIVATIVES(mixture)
DERIVATIVES(mixed)
DERIVATIVES(written)
DERIVATIVES(held)
DERIVATIVES(inlined)
DERIVATIVES(local)
DERIVATIVES(copied)
DERIVATIVES(nested)
DERIVATIVES(deep)
DERIVATIVES(copies)
DERIVATIVES(fpairs)
DERIVATIVES(aliased)

/* Gradients with respect to p (np entries) and x (nx entries); f may
 * write p, so every evaluation gets a fresh copy. */
static void check_gradient(objective f, gradient grad, tangent tan, int np,
                           int nx, int n, const char *name) {
  double p0[NP], x0[3 * NP], p[NP], x[3 * NP], dp[NP], dx[3 * NP], vp[NP],
      vx[3 * NP], tol = 1e-6, h = 1e-6;
  for (int i = 0; i < np; ++i) {
    p0[i] = 0.2 + 0.07 * i - 0.003 * i * i;
    vp[i] = cos(1.0 + i);
  }
  for (int i = 0; i < nx; ++i) {
    x0[i] = 0.5 * sin(0.3 * i);
    vx[i] = sin(2.0 + i);
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    memcpy(p, p0, sizeof p);
    memcpy(x, x0, sizeof x);
    memset(dp, 0, sizeof dp);
    memset(dx, 0, sizeof dx);
    grad(p, dp, x, dx, n);
    for (int i = 0; i < np + nx; ++i) {
      double fs[2];
      for (int side = 0; side < 2; ++side) {
        memcpy(p, p0, sizeof p);
        memcpy(x, x0, sizeof x);
        double *v = i < np ? &p[i] : &x[i - np];
        *v += side ? -h : h;
        fs[side] = f(p, x, n);
      }
      double fd = (fs[0] - fs[1]) / (2 * h);
      double got = i < np ? dp[i] : dx[i - np];
      if (fabs(got - fd) > tol * (1 + fabs(fd)))
        printf("%s, %d threads, %s[%d]: %g, differences %g\n", name, threads,
               i < np ? "p" : "x", i < np ? i : i - np, got, fd);
      CHECK_CLOSE(got, fd, tol);
    }
    /* forward: the tangent along (vp, vx) is the gradient's dot product */
    memcpy(p, p0, sizeof p);
    memcpy(x, x0, sizeof x);
    double tp[NP], tx[3 * NP];
    memcpy(tp, vp, sizeof tp);
    memcpy(tx, vx, sizeof tx);
    double along = tan(p, tp, x, tx, n), dot = 0;
    for (int i = 0; i < np; ++i)
      dot += dp[i] * vp[i];
    for (int i = 0; i < nx; ++i)
      dot += dx[i] * vx[i];
    if (fabs(along - dot) > 1e-9 * (1 + fabs(dot)))
      printf("%s, %d threads: forward %g against reverse %g\n", name, threads,
             along, dot);
    CHECK_CLOSE(along, dot, 1e-9);
  }
}

/* Two reads far apart: p[0] * x[i] + p[FAR] * x[i]^2. */
enum { FAR = 200000 };
double far(const double *p, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] + p[FAR] * x[i] * x[i];
  return s;
}

/* Float parameters: s = sum_i (a x_i + b)^2. */
float floats(const float *p, const float *x, int n) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    float r = p[0] * x[i] + p[1];
    s += r * r;
  }
  return s;
}

static void check_far(void) {
  double *p = calloc(FAR + 1, sizeof *p), *dp = calloc(FAR + 1, sizeof *dp);
  double x[NP], sx = 0, sxx = 0;
  for (int i = 0; i < NP; ++i) {
    x[i] = 0.1 * i - 0.7;
    sx += x[i];
    sxx += x[i] * x[i];
  }
  p[0] = 1.5;
  p[FAR] = -0.5;
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    dp[0] = dp[1] = dp[FAR] = 0;
    __enzyme_autodiff((void *)far, enzyme_dup, p, dp, enzyme_const, x,
                      enzyme_const, NP);
    CHECK_CLOSE(dp[0], sx, 1e-12);
    CHECK_CLOSE(dp[FAR], sxx, 1e-12);
    CHECK_CLOSE(dp[1], 0.0, 0.0);
  }
  free(p);
  free(dp);
}

/* fpairs' gradient, analytic: float pairs, exact at these points. */
static void check_fpairs(void) {
  enum { n = NP };
  double p[2] = {0.75, -0.25}, x[NP], dp0 = 0, dp1 = 0, dx_want[NP] = {0},
         value = 0;
  for (int j = 0; j < n; ++j)
    x[j] = 0.05 * j - 0.4;
  for (int i = 0; i < 200 * n; ++i) {
    int odd = i % 2;
    double a = odd ? p[1] : p[0], b = odd ? p[0] : p[1];
    *(odd ? &dp1 : &dp0) += x[i % n];
    *(odd ? &dp0 : &dp1) += 2e-3 * b;
    dx_want[i % n] += a;
    value += a * x[i % n] + b * b * 1e-3;
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double dp[2] = {0, 0}, dx[NP] = {0}, vp[2] = {0.5, -1}, vx[NP];
    CHECK_CLOSE(fpairs_(p, x, n), value, 1e-5);
    gradient_fpairs(p, dp, x, dx, n);
    CHECK_CLOSE(dp[0], dp0, 1e-5);
    CHECK_CLOSE(dp[1], dp1, 1e-5);
    double dot = vp[0] * dp0 + vp[1] * dp1;
    for (int j = 0; j < n; ++j) {
      CHECK_CLOSE(dx[j], dx_want[j], 1e-5);
      vx[j] = sin(1.0 + j);
      dot += vx[j] * dx_want[j];
    }
    /* forward: the tangent along (vp, vx) */
    CHECK_CLOSE(tangent_fpairs(p, vp, x, vx, n), dot, 1e-5);
  }
}

static void check_floats(void) {
  float p[2] = {0.75f, -0.25f}, x[NP];
  double da = 0, db = 0;
  for (int i = 0; i < NP; ++i) {
    x[i] = 0.05f * i - 0.4f;
    double r = (double)p[0] * x[i] + p[1];
    da += 2 * r * x[i];
    db += 2 * r;
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    float dp[2] = {0, 0};
    __enzyme_autodiff((void *)floats, enzyme_dup, p, dp, enzyme_const, x,
                      enzyme_const, NP);
    CHECK_CLOSE(dp[0], da, 1e-4);
    CHECK_CLOSE(dp[1], db, 1e-4);
  }
}

int main(void) {
  check_gradient(mixture_, gradient_mixture, tangent_mixture, M, NP * D, NP,
                 "mixture");
  check_gradient(mixed_, gradient_mixed, tangent_mixed, NP, NP, NP, "mixed");
  check_gradient(written_, gradient_written, tangent_written, 2, NP, NP,
                 "written");
  check_gradient(held_, gradient_held, tangent_held, 2, NP, NP, "held");
  check_gradient(inlined_, gradient_inlined, tangent_inlined, 2, NP, NP,
                 "inlined");
  check_gradient(local_, gradient_local, tangent_local, 2, NP, NP, "local");
  check_gradient(copied_, gradient_copied, tangent_copied, 2, NP, NP,
                 "copied");
  omp_set_max_active_levels(2);
  check_gradient(nested_, gradient_nested, tangent_nested, 2, NP, NP,
                 "nested");
  check_gradient(deep_, gradient_deep, tangent_deep, 2, NP, NP, "deep");
  check_gradient(copies_, gradient_copies, tangent_copies, 2, NP, NP,
                 "copies");
  check_fpairs();
  check_gradient(aliased_, gradient_aliased, tangent_aliased, 2, NP, NP,
                 "aliased");
  check_far();
  check_floats();
  return check_finish();
}
