/* OpenMP regions of functions called with pointer arguments into one
 * array (f(a, a + 1), f(a, a)): the reverse sweep's adjoint updates of
 * shared memory must not take two pointer arguments to be different
 * arrays (docs/parallel.md, "Memory reached two ways").
 *   shifted    s += sin(x[i]) * y[i], y = x + 1: iterations i and i + 1
 *              add into the same adjoint (plain updates raced: a schedule
 *              of chunks of 1 puts them on different threads);
 *              (also with x and y firstprivate: passed by value);
 *   scaled     s += p[0] * x[i] * x[i], p = x: every thread's per-thread
 *              copy of p's adjoints is added into x's while other threads
 *              updated x's elements plainly (raced);
 *   rewritten  a loop writes q[i], a later loop reads p[0] and p[i], p = q:
 *              per-thread copies of p's adjoints were added in after the
 *              reverse of the write had read q's (wrong at every count of
 *              threads);
 *   restricted the same with q restrict and p another array (the copies
 *              are used: C's restrict promises that no other pointer
 *              reaches what is written through q).
 * Each gradient against central differences (every element perturbed),
 * forward mode against reverse (dot products), at 1, 2 and 4 threads,
 * repeated to give a race its chances. The functions are not inlined into
 * their callers (there the two pointers would visibly be one). */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 1024, REPEATS = 8 };

__attribute__((noinline)) double shifted(const double *x, const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 1)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * y[i];
  return s;
}

/* The pointers passed to the region by value (at -O1 and above they are
 * the function's arguments themselves). */
__attribute__((noinline)) double shifted_by_value(const double *x,
                                                  const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 1)               \
    firstprivate(x, y)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * y[i];
  return s;
}

__attribute__((noinline)) double scaled(const double *p, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 1)
  for (int i = 0; i < n; ++i)
    s += p[0] * x[i] * x[i];
  return s;
}

__attribute__((noinline)) double rewritten(double *q, const double *p, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      q[i] = sin(q[i]) + 0.5 * q[i];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += p[0] * p[i] + p[1] * p[i] * p[i];
  }
  return s;
}

__attribute__((noinline)) double restricted(double *restrict q, const double *p, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      q[i] = sin(q[i]) + 0.5 * q[i];
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += p[0] * p[i] + p[1] * p[i] * p[i] + q[i];
  }
  return s;
}

/* Each case as a function of one array a of N doubles. */
typedef double (*objective)(double *a);
typedef void (*gradient)(double *a, double *da);
typedef double (*tangent)(double *a, double *va);

static double f_shifted(double *a) { return shifted(a, a + 1, N - 1); }
static void g_shifted(double *a, double *da) {
  __enzyme_autodiff((void *)shifted, enzyme_dup, a, da, enzyme_dup, a + 1,
                    da + 1, enzyme_const, N - 1);
}
static double t_shifted(double *a, double *va) {
  return __enzyme_fwddiff((void *)shifted, enzyme_dup, a, va, enzyme_dup,
                          a + 1, va + 1, enzyme_const, N - 1);
}

static double f_by_value(double *a) {
  return shifted_by_value(a, a + 1, N - 1);
}
static void g_by_value(double *a, double *da) {
  __enzyme_autodiff((void *)shifted_by_value, enzyme_dup, a, da, enzyme_dup,
                    a + 1, da + 1, enzyme_const, N - 1);
}
static double t_by_value(double *a, double *va) {
  return __enzyme_fwddiff((void *)shifted_by_value, enzyme_dup, a, va,
                          enzyme_dup, a + 1, va + 1, enzyme_const, N - 1);
}

static double f_scaled(double *a) { return scaled(a, a, N); }
static void g_scaled(double *a, double *da) {
  __enzyme_autodiff((void *)scaled, enzyme_dup, a, da, enzyme_dup, a, da,
                    enzyme_const, N);
}
static double t_scaled(double *a, double *va) {
  return __enzyme_fwddiff((void *)scaled, enzyme_dup, a, va, enzyme_dup, a,
                          va, enzyme_const, N);
}

static double f_rewritten(double *a) { return rewritten(a, a, N); }
static void g_rewritten(double *a, double *da) {
  __enzyme_autodiff((void *)rewritten, enzyme_dup, a, da, enzyme_dup, a, da,
                    enzyme_const, N);
}
static double t_rewritten(double *a, double *va) {
  return __enzyme_fwddiff((void *)rewritten, enzyme_dup, a, va, enzyme_dup,
                          a, va, enzyme_const, N);
}

/* q is the first half of a, p the second. */
static double f_restricted(double *a) { return restricted(a, a + N / 2, N / 2); }
static void g_restricted(double *a, double *da) {
  __enzyme_autodiff((void *)restricted, enzyme_dup, a, da, enzyme_dup,
                    a + N / 2, da + N / 2, enzyme_const, N / 2);
}
static double t_restricted(double *a, double *va) {
  return __enzyme_fwddiff((void *)restricted, enzyme_dup, a, va, enzyme_dup,
                          a + N / 2, va + N / 2, enzyme_const, N / 2);
}

static void fill(double *a) {
  for (int i = 0; i < N; ++i)
    a[i] = 0.3 + 0.4 * sin(0.37 * i);
}

static void check(objective f, gradient g, tangent t, const char *name) {
  static double a[N], da[N], va[N], want[N];
  const double h = 1e-6, tol = 1e-6;
  /* central differences (the objective rewrites a: fill it each time) */
  omp_set_num_threads(1);
  for (int j = 0; j < N; ++j) {
    fill(a);
    a[j] += h;
    double up = f(a);
    fill(a);
    a[j] -= h;
    want[j] = (up - f(a)) / (2 * h);
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    int wrong = 0;
    for (int r = 0; r < REPEATS; ++r) {
      fill(a);
      for (int i = 0; i < N; ++i)
        da[i] = 0;
      g(a, da);
      for (int j = 0; j < N; ++j)
        if (!(fabs(da[j] - want[j]) <= tol * (1 + fabs(want[j])))) {
          if (!wrong++)
            printf("%s, %d threads, run %d: da[%d] = %.12g, expected %.12g\n",
                   name, threads, r, j, da[j], want[j]);
        }
    }
    CHECK_TRUE(wrong == 0);
    /* forward: the tangent along va is the gradient's dot product with va */
    fill(a);
    double dot = 0;
    for (int i = 0; i < N; ++i) {
      va[i] = cos(1.0 + i);
      dot += want[i] * va[i];
    }
    double along = t(a, va);
    if (fabs(along - dot) > 1e-5 * (1 + fabs(dot)))
      printf("%s, %d threads: forward %.12g against reverse %.12g\n", name,
             threads, along, dot);
    CHECK_CLOSE(along, dot, 1e-5);
  }
}

int main(void) {
  check(f_shifted, g_shifted, t_shifted, "shifted");
  check(f_by_value, g_by_value, t_by_value, "by value");
  check(f_scaled, g_scaled, t_scaled, "scaled");
  check(f_rewritten, g_rewritten, t_rewritten, "rewritten");
  check(f_restricted, g_restricted, t_restricted, "restricted");
  return check_finish();
}
