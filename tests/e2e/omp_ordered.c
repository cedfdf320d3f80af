/* OpenMP reductions other than + and critical sections that are not sums,
 * whose reverse depends on the order the threads ran them in: reverse mode
 * (gradients) against central finite differences, forward mode against
 * reverse mode, with teams of 1, 2 and 4 threads (omp_check.h). max, min
 * and * reductions, a product with a zero factor, a critical section that
 * keeps a running maximum and its index, a product in a critical section
 * beside a sum, a section in a function the region calls, a loop of
 * regions, a region inside a region (which the OpenMP runtime runs on
 * one thread: the outer region's turns must survive it), omp atomic with
 * other operators than += (rewritten as critical sections: *=, /=, an
 * atomic compare maximum, a capture), and ties of a max reduction (the adjoint
 * goes to the element the primal kept). */
enum { N = 29 };

#include "omp_check.h"

#include <float.h>

/* max_i x_i x_{i+1}: reduction(max) over a dynamic schedule */
double max_product(const double *x, double *y, int n) {
  (void)y;
  double m = -DBL_MAX;
#pragma omp parallel for reduction(max : m) schedule(dynamic, 2)
  for (int i = 0; i < n - 1; ++i) {
    double v = x[i] * x[i + 1] * (1.0 + 0.01 * i);
    m = v > m ? v : m;
  }
  return m * m;
}

/* min_i sin(x_i) + max_i cos(x_i): two reductions of one region */
double min_and_max(const double *x, double *y, int n) {
  (void)y;
  double lo = DBL_MAX, hi = -DBL_MAX;
#pragma omp parallel for reduction(min : lo) reduction(max : hi)
  for (int i = 0; i < n; ++i) {
    lo = fmin(lo, sin(3.0 * x[i]));
    hi = fmax(hi, cos(2.0 * x[i] + 0.1 * i));
  }
  return lo * hi + lo;
}

/* prod_i (0.7 + x_i): reduction(*) */
double product(const double *x, double *y, int n) {
  (void)y;
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(static, 3)
  for (int i = 0; i < n; ++i)
    p *= 0.7 + x[i];
  return p;
}

/* A product with one factor exactly zero at the point checked (x_3 - z):
 * its derivative is the product of the others, every other one is 0. */
double product_zero(const double *x, double *y, int n) {
  (void)y;
  const double z = 0.3 + 0.05 * 3 - 0.002 * 3 * 3; /* x_3 of omp_check.h */
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; ++i)
    p *= i == 3 ? x[i] - z : 0.7 + x[i];
  return 10 * p;
}

/* A running maximum and its index in a critical section (user code, not a
 * reduction): f = m * y_k + m, k the element that won. */
double argmax(const double *x, double *y, int n) {
  double m = -DBL_MAX;
  int k = 0;
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < n; ++i) {
    y[i] = sin(x[i]) + 0.02 * i;
    double v = y[i] * (1.0 + x[(i + 1) % n]);
#pragma omp critical
    {
      if (v > m) {
        m = v;
        k = i;
      }
    }
  }
  return m * y[k] + m;
}

/* A product and a sum in named critical sections of one region, then a
 * barrier and a second product in the same region. */
double sections(const double *x, double *y, int n) {
  double p = 1, s = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i) {
      double v = 0.9 + 0.2 * x[i];
#pragma omp critical(prod)
      p = p * v;
#pragma omp critical(sum)
      s += v * v;
      y[i] = v;
    }
#pragma omp for
    for (int i = 0; i < n; ++i) {
#pragma omp critical(prod)
      p *= 1.0 + 0.1 * y[n - 1 - i];
    }
  }
  return p * s;
}

/* A critical section in a function the region calls (kept a call at
 * every level): its own tickets, taken in the caller's region. */
__attribute__((noinline)) static void keep_larger(double v, double *m) {
#pragma omp critical(larger)
  {
    if (v > *m)
      *m = v;
  }
}

double callee_max(const double *x, double *y, int n) {
  (void)y;
  double m = -DBL_MAX;
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; ++i)
    keep_larger(x[i] * sin(x[(i + 2) % n] + i), &m);
  return m * m + m;
}

/* A time loop of regions with a max reduction each */
double steps(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  double total = 0;
  for (int t = 0; t < 3; ++t) {
    double m = -DBL_MAX;
#pragma omp parallel for reduction(max : m) num_threads(2 + t % 2)
    for (int i = 0; i < n; ++i) {
      y[i] = y[i] * (1.0 + 0.1 * x[(i + t) % n]);
      if (y[i] * (1 + 0.05 * i) > m)
        m = y[i] * (1 + 0.05 * i);
    }
    total += m;
  }
  return total;
}

/* max reductions in regions nested in a sum reduction's region, and a
 * product in a critical section of the outer region after each */
double nested(const double *x, double *y, int n) {
  (void)y;
  double total = 0, prod = 1;
#pragma omp parallel for reduction(+ : total) schedule(dynamic)
  for (int k = 0; k < 4; ++k) {
    double m = -DBL_MAX;
#pragma omp parallel for reduction(max : m)
    for (int i = 0; i < n; ++i) {
      double v = x[i] * sin(x[(i + k) % n] + k) + 0.013 * i;
      m = v > m ? v : m;
    }
#pragma omp critical(outer)
    prod = prod * (1 + 0.1 * m);
    total += m * (1 + k);
  }
  return total + prod;
}

/* omp atomic *=, /= and an atomic compare maximum beside +=: one lock */
double atomics(const double *x, double *y, int n) {
  (void)y;
  double p = 1, r = 2, q = 0, m = -DBL_MAX;
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; ++i) {
    double v = 0.9 + 0.2 * sin(x[i] + i);
#pragma omp atomic
    p *= v;
#pragma omp atomic
    r /= 1 + 0.1 * x[i];
#pragma omp atomic
    q += x[i] * x[i];
#pragma omp atomic compare
    if (m < v) {
      m = v;
    }
  }
  return p * r + q + m;
}

/* omp atomic capture of the value before a += (one thread: the captured
 * values depend on the order the threads ran in) */
double captured(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for num_threads(1)
  for (int i = 0; i < n; ++i) {
    double old;
#pragma omp atomic capture
    {
      old = s;
      s += x[i] * x[i];
    }
    y[i] = old;
  }
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += y[i] * x[i];
  return t + s * s;
}

DERIVATIVES(max_product)
DERIVATIVES(min_and_max)
DERIVATIVES(product)
DERIVATIVES(product_zero)
DERIVATIVES(argmax)
DERIVATIVES(sections)
DERIVATIVES(callee_max)
DERIVATIVES(steps)
DERIVATIVES(nested)
DERIVATIVES(atomics)
DERIVATIVES(captured)

/* omp atomic *= differentiated in forward mode only (nothing asks for its
 * gradient first) */
static double fwd_product(const double *x, int n) {
  double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    p *= 0.8 + 0.1 * x[i];
  }
  return p;
}

static void check_forward_only(void) {
  double x[N], v[N], xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.1 * i;
    v[i] = cos(i);
    xp[i] = x[i] + 1e-6 * v[i];
    xm[i] = x[i] - 1e-6 * v[i];
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    double t = __enzyme_fwddiff((void *)fwd_product, enzyme_dup, x, v,
                                enzyme_const, N);
    CHECK_CLOSE(t, (fwd_product(xp, N) - fwd_product(xm, N)) / 2e-6, 1e-6);
  }
}

/* max of equal values: the whole adjoint goes to the element the primal
 * kept (one of the ties, whichever the threads' order made it). */
static double tied_max(const double *x, int n) {
  double m = -DBL_MAX;
#pragma omp parallel for reduction(max : m) schedule(static, 1)
  for (int i = 0; i < n; ++i)
    m = x[i] > m ? x[i] : m;
  return m;
}

static void check_ties(void) {
  double x[N], dx[N];
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    for (int i = 0; i < N; ++i) {
      x[i] = i % 5 == 2 ? 3.0 : 0.1 * i - 2;
      dx[i] = 0;
    }
    __enzyme_autodiff((void *)tied_max, x, dx, enzyme_const, N);
    double total = 0;
    int winners = 0;
    for (int i = 0; i < N; ++i) {
      CHECK_TRUE(dx[i] == 0 || (dx[i] == 1 && x[i] == 3.0));
      total += dx[i];
      winners += dx[i] != 0;
    }
    CHECK_CLOSE(total, 1.0, 0);
    CHECK_TRUE(winners == 1);
  }
}

int main(void) {
  CHECK_GRADIENT(max_product, 1e-6, 1e-6);
  CHECK_GRADIENT(min_and_max, 1e-6, 1e-6);
  CHECK_GRADIENT(product, 1e-6, 1e-6);
  CHECK_GRADIENT(product_zero, 1e-6, 1e-6);
  CHECK_GRADIENT(argmax, 1e-6, 1e-6);
  CHECK_GRADIENT(sections, 1e-6, 1e-6);
  CHECK_GRADIENT(callee_max, 1e-6, 1e-6);
  CHECK_GRADIENT(steps, 1e-6, 1e-6);
  CHECK_GRADIENT(nested, 1e-6, 1e-6);
  CHECK_GRADIENT(atomics, 1e-6, 1e-6);
  CHECK_GRADIENT(captured, 1e-6, 1e-6);
  check_ties();
  check_forward_only();
  return check_finish();
}
