/* Parallel regions nested in parallel regions, both modes: a region in a
 * callee of a region, a region written inside a region, and a program's
 * own region whose threads each call a derivative of a function with a
 * region (not differentiated itself). With omp_set_max_active_levels(2)
 * the inner teams are real; their threads other than the first come from
 * a pool shared by the inner teams that run at once. Until 2026-12-06
 * such a thread recorded every inner region it worked for on its one
 * tape, interleaved, and the reverse regions (at once, in another order)
 * popped each other's records: gradients off by up to 15% from one call
 * to the next (now the region gives such a thread a tape of its own:
 * runtime/lib/parallel.c). With one active level the inner regions run
 * on teams of one thread. Teams of 1, 2 and 4 outer threads (omp_check.h),
 * each call repeated: the fault came and went. */
#define N 12
#include "omp_check.h"

static double inner(const double *x, int n, int k) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
  for (int i = 0; i < n; ++i)
    s += sin(x[i] * (k + 1)) * x[(i + k) % n];
  return s;
}

/* a region in a callee, called from every iteration of a region */
double nested_call(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static)
  for (int k = 0; k < n; ++k)
    y[k] = inner(x, n, k) * x[k];
  double e = 0;
  for (int k = 0; k < n; ++k)
    e += y[k] * y[k];
  return e;
}

/* a region inside a region (dynamic schedule outside) */
double nested_direct(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 1)
  for (int k = 0; k < n; ++k) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; ++i)
      s += cos(x[i] + k) * x[k];
    y[k] = s;
  }
  double e = 0;
  for (int k = 0; k < n; ++k)
    e += y[k] * x[k];
  return e;
}
/* a maximum per outer iteration, by an inner reduction (its reverse
 * replays the inner threads' critical sections in the reverse of their
 * order, by the inner region's turn counter) */
double nested_max(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int k = 0; k < n; ++k) {
    double m = -1e30;
#pragma omp parallel for reduction(max : m) num_threads(2)
    for (int i = 0; i < n; ++i)
      m = fmax(m, sin(x[i] * (k + 1)));
    y[k] = m;
  }
  double e = 0;
  for (int k = 0; k < n; ++k)
    e += y[k] * x[k];
  return e;
}
/* a maximum over every (k, i), one variable that the critical sections of
 * all the inner regions update: their reverse must replay them in the
 * reverse of the order they ran in across the inner regions (the outer
 * region's turn counter; until 2026-12-06 each inner region had its own,
 * and an earlier winner in another region got the adjoint too) */
double shared_max(const double *x, double *y, int n) {
  double m = -1e30;
#pragma omp parallel for
  for (int k = 0; k < n; ++k) {
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < n; ++i) {
      double v = sin(x[i] * (k + 1)) * x[k];
#pragma omp critical
      m = m > v ? m : v;
    }
  }
  (void)y;
  return m * m;
}
/* each inner iteration reads its own element of x, as every inner region
 * does: the adjoint updates of x[i] from the teams of different outer
 * threads meet (until 2026-12-06 they were plain, as in a region that is
 * not nested: a race, gradients off at 2 and 4 outer threads) */
double own_elements(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int k = 0; k < n; ++k) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int i = 0; i < n; ++i)
      s += sin(x[i] * (1 + 0.1 * k));
    y[k] = s;
  }
  double e = 0;
  for (int k = 0; k < n; ++k)
    e += y[k] * y[k];
  return e;
}
DERIVATIVES(nested_call)
DERIVATIVES(nested_direct)
DERIVATIVES(nested_max)
DERIVATIVES(shared_max)
DERIVATIVES(own_elements)

/* a function with one region, differentiated by each thread of the
 * program's region */
static double with_region(const double *x, double *y, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e) num_threads(2)
  for (int i = 0; i < n; ++i)
    e += exp(0.1 * x[i]) * x[(i + 1) % n];
  (void)y;
  return e;
}
DERIVATIVES(with_region)

/* Every thread of a team of 4 computes with_region's gradient and tangent
 * at its own point, against those computed outside any region. */
static void check_from_threads(void) {
  double x[4][N], want[4][N], want_tan[4], v[N];
  for (int i = 0; i < N; ++i)
    v[i] = sin(2.0 + i);
  for (int t = 0; t < 4; ++t) {
    double y[N], dy[N], dv[N];
    for (int i = 0; i < N; ++i) {
      x[t][i] = 0.2 * t + 0.1 * i;
      want[t][i] = dy[i] = 0;
    }
    gradient_with_region(x[t], want[t], y, dy);
    for (int i = 0; i < N; ++i)
      dv[i] = 0;
    want_tan[t] = tangent_with_region(x[t], v, y, dv);
  }
  double got[4][N], got_tan[4];
#pragma omp parallel num_threads(4)
  {
    int t = omp_get_thread_num();
    double y[N], dy[N], dv[N];
    for (int rep = 0; rep < 4; ++rep) {
      for (int i = 0; i < N; ++i)
        got[t][i] = dy[i] = dv[i] = 0;
      gradient_with_region(x[t], got[t], y, dy);
      got_tan[t] = tangent_with_region(x[t], v, y, dv);
      for (int i = 0; i < N; ++i)
        if (got[t][i] != want[t][i])
          got[t][i] = NAN; /* (kept: any differing call fails) */
    }
  }
  for (int t = 0; t < omp_get_max_threads() && t < 4; ++t) {
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(got[t][i], want[t][i], 1e-12);
    CHECK_CLOSE(got_tan[t], want_tan[t], 1e-12);
  }
}

int main(void) {
  for (int levels = 1; levels <= 2; ++levels) {
    omp_set_max_active_levels(levels);
    for (int rep = 0; rep < 3; ++rep) {
      CHECK_GRADIENT(nested_call, 1e-6, 1e-6);
      CHECK_GRADIENT(nested_direct, 1e-6, 1e-6);
      CHECK_GRADIENT(nested_max, 1e-6, 1e-6);
      CHECK_GRADIENT(shared_max, 1e-6, 1e-6);
      CHECK_GRADIENT(own_elements, 1e-6, 1e-6);
    }
    CHECK_GRADIENT(with_region, 1e-6, 1e-6);
    omp_set_num_threads(4);
    check_from_threads();
  }
  return check_finish();
}
