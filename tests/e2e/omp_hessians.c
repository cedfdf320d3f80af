/* Hessian-vector products of functions with OpenMP regions: forward mode
 * over the reverse sweep of the regions (the region handles, the threads'
 * tapes, the turns of ordered critical sections and the run-time overlap
 * checks run as they are; each shadow record goes on the tape of the
 * thread that pushes its record):
 *   dynamic     s += sin(x[i]) x[i]^2, schedule(dynamic, 2): plain updates
 *               of the iteration's own element;
 *   neighbours  s += x[i] x[i+1]^2 + atomic +=: atomic updates;
 *   maximum     reduction(max) and a product in a critical section: the
 *               sections replayed in the reverse of the threads' order;
 *   params      parameters x[0..3] read by every point: per-thread copies
 *               of their adjoints, with copies of the copies' tangents;
 *   ends        parameters at both ends: windows that grow both ways;
 *   linear      linear in parameters every point reads: constant
 *               adjoints into the per-thread copies;
 *   locked      a product and a sum under an OpenMP lock;
 *   pair        s += x[i] exp(y[i]) over x and y = x + n/2 (the run-time
 *               check finds them apart) and y = x + 1 (overlapping).
 * Each Hessian-vector product against central differences of the
 * gradient along v, and the gradient it comes with against central
 * differences of the function, at 1, 2 and 4 threads. */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 24 };

double dynamic(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 2)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * x[i] * x[i];
  return s;
}

double neighbours(const double *x, int n) {
  double s = 0, t = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n - 1; ++i) {
    s += x[i] * x[i + 1] * x[i + 1];
#pragma omp atomic
    t += cos(x[i]);
  }
  return s + t * t;
}

double maximum(const double *x, int n) {
  double m = -1e300, p = 1;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; ++i) {
    double v = x[i] * x[i] * (1 + 0.01 * i);
    if (v > m)
      m = v;
#pragma omp critical
    p = p * (1 + 0.1 * x[i] * x[i]);
  }
  return m * m + p;
}

__attribute__((noinline)) double pair(const double *x, const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * exp(0.5 * y[i]) + y[i] * y[i] * x[i];
  return s;
}
/* x[0..3] are parameters that every point reads (per-thread copies of
 * their adjoints in the reverse region), x[4..] the points. */
double params(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 3)
  for (int i = 4; i < n; ++i) {
    double t = 0.1 * i;
    double pred = x[0] + x[1] * t + x[2] * t * t + sin(x[3] * t);
    double r = x[i] - pred;
    s += r * r * (1 + 0.5 * x[0] * x[3]);
  }
  return s;
}

/* Parameters at both ends, x[20..23] read before x[0..1]: each thread's
 * window (and its tangents') grows downwards, then upwards. */
double ends(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static, 2)
  for (int i = 2; i < n - 4; ++i) {
    double t = 0.05 * i;
    double far = x[n - 1] * t + x[n - 2] * x[n - 3] + cos(x[n - 4] * t);
    double r = x[i] * far - x[0] - x[1] * t * t;
    s += r * r;
  }
  return s;
}

/* Linear in the parameters x[0], x[1] that every point reads: constant
 * adjoints into the per-thread copies (no tangents), a zero Hessian. */
double linear(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4 * n; ++i) {
    double c = 0.01 * i;
    s += x[0] * c + x[1] * c * c;
  }
  return s;
}

/* A product under an OpenMP lock (a critical section replayed in the
 * reverse of the threads' order) beside a sum under the same lock. */
double locked(const double *x, int n) {
  omp_lock_t l;
  omp_init_lock(&l);
  double p = 1, s = 0;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < n; ++i) {
    double f = 1 + 0.05 * x[i] * x[i];
    omp_set_lock(&l);
    p = p * f;
    s += sin(x[i]);
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return p + s * s;
}

double pair_apart(const double *x, int n) { return pair(x, x + n / 2, n / 2); }
double pair_shifted(const double *x, int n) { return pair(x, x + 1, n - 1); }

typedef double (*objective)(const double *, int);
typedef void (*gradient)(const double *, double *, int);
typedef void (*hessian)(const double *, const double *, double *, double *,
                        int);

#define DERIVATIVES(f)                                                         \
  static void g_##f(const double *x, double *dx, int n) {                      \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);          \
  }                                                                            \
  static void h_##f(const double *x, const double *v, double *dx, double *hv,  \
                    int n) {                                                   \
    __enzyme_fwddiff((void *)g_##f, enzyme_dup, x, v, enzyme_dup, dx, hv,      \
                     enzyme_const, n);                                         \
  }
DERIVATIVES(dynamic)
DERIVATIVES(neighbours)
DERIVATIVES(maximum)
DERIVATIVES(params)
DERIVATIVES(ends)
DERIVATIVES(linear)
DERIVATIVES(locked)
DERIVATIVES(pair_apart)
DERIVATIVES(pair_shifted)

static void check(const char *name, objective f, gradient g, hessian h) {
  double x[N], v[N], dx[N], hv[N], want[N], gp[N], gm[N], xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.2 + 0.05 * i + 0.1 * sin(1.7 * i);
    v[i] = cos(0.9 * i);
  }
  const double step = 1e-5;
  omp_set_num_threads(1);
  for (int j = 0; j < N; ++j) {
    double keep = x[j];
    x[j] = keep + step;
    double up = f(x, N);
    x[j] = keep - step;
    want[j] = (up - f(x, N)) / (2 * step);
    x[j] = keep;
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    for (int i = 0; i < N; ++i) {
      dx[i] = hv[i] = gp[i] = gm[i] = 0;
      xp[i] = x[i] + step * v[i];
      xm[i] = x[i] - step * v[i];
    }
    h(x, v, dx, hv, N);
    g(xp, gp, N);
    g(xm, gm, N);
    int wrong = 0;
    for (int i = 0; i < N; ++i) {
      double fd = (gp[i] - gm[i]) / (2 * step);
      if (!(fabs(hv[i] - fd) <= 1e-5 * (1 + fabs(fd))) && !wrong++)
        printf("%s, %d threads: hv[%d] = %.12g, expected %.12g\n", name,
               threads, i, hv[i], fd);
      if (!(fabs(dx[i] - want[i]) <= 1e-5 * (1 + fabs(want[i]))) && !wrong++)
        printf("%s, %d threads: dx[%d] = %.12g, expected %.12g\n", name,
               threads, i, dx[i], want[i]);
    }
    CHECK_TRUE(wrong == 0);
  }
}

int main(void) {
  check("dynamic", dynamic, g_dynamic, h_dynamic);
  check("neighbours", neighbours, g_neighbours, h_neighbours);
  check("maximum", maximum, g_maximum, h_maximum);
  check("params", params, g_params, h_params);
  check("ends", ends, g_ends, h_ends);
  check("linear", linear, g_linear, h_linear);
  check("locked", locked, g_locked, h_locked);
  check("pair apart", pair_apart, g_pair_apart, h_pair_apart);
  check("pair shifted", pair_shifted, g_pair_shifted, h_pair_shifted);
  return check_finish();
}
