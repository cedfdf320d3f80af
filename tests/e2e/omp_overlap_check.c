/* A parallel loop reading x[i] and y[i] through two pointer arguments that
 * may point into one array: the reverse sweep's adjoint updates of those
 * elements are plain where the run-time check of the augmented sweep finds
 * the ranges the loop reads apart, atomic where they overlap
 * (docs/parallel.md, "Pointer arguments into one array"). Each case is a
 * function of one array a of N doubles:
 *   apart     x = a, y = a + N / 2 (the ranges touch: apart), and the
 *             other way round;
 *   shifted   y = x + 1: iterations i and i + 1 update one element;
 *   same      y = x: each element read twice by one iteration;
 *   half      y = x + N / 4 over N / 2 elements;
 *   shadows   x and y apart, but y's derivative array starts one element
 *             after x's: the adjoints of x[i + 1] and y[i] go to one
 *             place (the check is on the derivative arrays, where the
 *             reverse sweep adds);
 * with a static schedule and with a dynamic one of chunks of 1 (the
 * overlapping updates then come from different threads). Each gradient
 * against central differences (every element perturbed), forward mode
 * against reverse (dot products), at 1, 2 and 4 threads, repeated to give
 * a race its chances. The functions are not inlined into their callers
 * (there the two pointers would visibly be one array). */
#include "check.h"

#include <omp.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 512, REPEATS = 6 };

__attribute__((noinline)) double products(const double *x, const double *y,
                                          int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * y[i] * y[i];
  return s;
}

__attribute__((noinline)) double dynamic_products(const double *x,
                                                  const double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 1)
  for (int i = 0; i < n; ++i)
    s += sin(x[i]) * y[i] * y[i];
  return s;
}

typedef double (*kernel)(const double *, const double *, int);

/* Where x and y start in a, how many elements the loop reads, and where
 * y's derivative starts in the gradient's array (x's at x). */
struct layout {
  const char *name;
  int x, y, n, dy;
};

static const struct layout Layouts[] = {
    {"apart", 0, N / 2, N / 2, N / 2}, {"apart, y first", N / 2, 0, N / 2, 0},
    {"shifted", 0, 1, N - 1, 1},       {"same", 0, 0, N, 0},
    {"half", 0, N / 4, N / 2, N / 4},  {"shadows", 0, N / 2, N / 2 - 1, 1},
};

static void fill(double *a) {
  for (int i = 0; i < N; ++i)
    a[i] = 0.3 + 0.4 * sin(0.37 * i);
}

static double objective(kernel k, const struct layout *l, double *a) {
  return k(a + l->x, a + l->y, l->n);
}

/* The gradients and tangents, one function per kernel (a request names
 * its function). */
typedef void (*gradient)(const struct layout *, double *, double *);
typedef double (*tangent)(const struct layout *, double *, double *);

static void g_static(const struct layout *l, double *a, double *da) {
  __enzyme_autodiff((void *)products, enzyme_dup, a + l->x, da + l->x,
                    enzyme_dup, a + l->y, da + l->dy, enzyme_const, l->n);
}
static double t_static(const struct layout *l, double *a, double *va) {
  return __enzyme_fwddiff((void *)products, enzyme_dup, a + l->x, va + l->x,
                          enzyme_dup, a + l->y, va + l->y, enzyme_const, l->n);
}
static void g_dynamic(const struct layout *l, double *a, double *da) {
  __enzyme_autodiff((void *)dynamic_products, enzyme_dup, a + l->x, da + l->x,
                    enzyme_dup, a + l->y, da + l->dy, enzyme_const, l->n);
}
static double t_dynamic(const struct layout *l, double *a, double *va) {
  return __enzyme_fwddiff((void *)dynamic_products, enzyme_dup, a + l->x,
                          va + l->x, enzyme_dup, a + l->y, va + l->y,
                          enzyme_const, l->n);
}

static void check(kernel k, gradient g, tangent t, const char *schedule,
                  const struct layout *l) {
  static double a[N], da[N], va[N], want[N], expect[N];
  const double h = 1e-6, tol = 1e-6;
  omp_set_num_threads(1);
  fill(a);
  for (int j = 0; j < N; ++j) {
    double keep = a[j];
    a[j] = keep + h;
    double up = objective(k, l, a);
    a[j] = keep - h;
    want[j] = (up - objective(k, l, a)) / (2 * h);
    a[j] = keep;
  }
  /* The derivative arrays: where y's starts elsewhere than y (x and y
   * apart), its part of the gradient moves there. */
  for (int j = 0; j < N; ++j)
    expect[j] = l->dy == l->y ? want[j] : 0;
  if (l->dy != l->y)
    for (int i = 0; i < l->n; ++i) {
      expect[l->x + i] += want[l->x + i];
      expect[l->dy + i] += want[l->y + i];
    }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    int wrong = 0;
    for (int r = 0; r < REPEATS; ++r) {
      for (int i = 0; i < N; ++i)
        da[i] = 0;
      g(l, a, da);
      for (int j = 0; j < N; ++j)
        if (!(fabs(da[j] - expect[j]) <= tol * (1 + fabs(expect[j]))) &&
            !wrong++)
          printf("%s, %s, %d threads, run %d: da[%d] = %.12g, expected "
                 "%.12g\n",
                 schedule, l->name, threads, r, j, da[j], expect[j]);
    }
    CHECK_TRUE(wrong == 0);
    double dot = 0;
    for (int i = 0; i < N; ++i) {
      va[i] = cos(1.0 + i);
      dot += want[i] * va[i];
    }
    double along = t(l, a, va);
    if (fabs(along - dot) > 1e-5 * (1 + fabs(dot)))
      printf("%s, %s, %d threads: forward %.12g against reverse %.12g\n",
             schedule, l->name, threads, along, dot);
    CHECK_CLOSE(along, dot, 1e-5);
  }
}

int main(void) {
  for (unsigned c = 0; c < sizeof Layouts / sizeof *Layouts; ++c) {
    check(products, g_static, t_static, "static", &Layouts[c]);
    check(dynamic_products, g_dynamic, t_dynamic, "dynamic", &Layouts[c]);
  }
  return check_finish();
}
