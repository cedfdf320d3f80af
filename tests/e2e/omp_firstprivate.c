/* Values with derivatives passed into OpenMP regions by value: firstprivate
 * scalars and scalars a region captures by copy. Clang passes each as the
 * bits of a double in a 64-bit integer argument of the outlined function;
 * both modes refused them ("passed by value into an OpenMP parallel
 * region", or at -O0 "stored into memory that has no shadow"), and LULESH
 * (hourglass coefficient, energy floor, Courant constraint) uses them in
 * every loop. Each function is checked with teams of 1, 2 and 4 threads:
 * the gradient against central differences, forward mode against the
 * gradient (dot-product test).
 *
 * - scaled:  firstprivate(w) with w computed from x, read by every
 *            iteration (its adjoint is the sum over all threads);
 * - floored: `if (e[i] < emin) e[i] = emin` with a firstprivate floor
 *            (at -O2 a select of the integer bits, in SIMD lanes too);
 * - single:  a float firstprivate (32 bits in a 64-bit argument) next to
 *            two doubles, an int, and a double the region never reads
 *            (at -O2 an integer load of its bits, which forward mode
 *            refused);
 * - courant: a region (not a loop) that starts each thread's minimum
 *            from a captured value, keeps it per thread and reduces after
 *            the region, as LULESH's time constraints do. */
enum { N = 29 };

#include "omp_check.h"

double scaled(const double *x, double *y, int n) {
  double w = 0.4 + x[0] * x[0];
#pragma omp parallel for firstprivate(w, n)
  for (int i = 0; i < n; ++i)
    y[i] = sin(w * x[i]) + w;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[i];
  return s;
}

double floored(const double *x, double *e, int n) {
  double emin = 0.2 * x[1] - 0.05;
#pragma omp parallel for firstprivate(emin)
  for (int i = 0; i < n; ++i) {
    e[i] = x[i] * x[i] - 0.3;
    if (e[i] < emin)
      e[i] = emin;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += e[i] * (1.0 + 0.1 * i);
  return s;
}

double single(const double *x, double *y, int n) {
  float f = (float)(1.0 + 0.5 * x[2]);
  double a = x[3], b = exp(x[4]);
  int k = 3;
  double unused = x[6]; /* firstprivate, never read in the region */
#pragma omp parallel for firstprivate(f, a, b, k, unused)
  for (int i = 0; i < n; ++i)
    y[i] = f * x[i] + a * cos(b * x[i]) + k;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[i];
  return s;
}

double courant(const double *x, double *dt, int n) {
  double start = 1.0 + x[5] * x[5];
  double per_thread[64];
  int threads = omp_get_max_threads();
#pragma omp parallel firstprivate(start)
  {
    double mine = start;
#pragma omp for
    for (int i = 0; i < n; ++i) {
      dt[i] = 0.5 / (1.0 + x[i] * x[i] + 0.01 * i);
      if (dt[i] < mine)
        mine = dt[i];
    }
    per_thread[omp_get_thread_num()] = mine;
  }
  double least = per_thread[0];
  for (int t = 1; t < threads; ++t)
    if (per_thread[t] < least)
      least = per_thread[t];
  return least * 3.0 + start;
}

DERIVATIVES(scaled)
DERIVATIVES(floored)
DERIVATIVES(single)
DERIVATIVES(courant)
/* (A float's derivative: differences of a float have fewer digits.) */
int main(void) {
  /* The floor and the first minimum are taken somewhere (the derivatives
   * of both branches are checked). */
  double x[N], e[N], dt[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.05 * i - 0.002 * i * i;
  double floor_at = 0.2 * x[1] - 0.05;
  int floored_count = 0;
  for (int i = 0; i < N; ++i)
    floored_count += x[i] * x[i] - 0.3 < floor_at;
  CHECK_TRUE(floored_count > 0 && floored_count < N);
  CHECK_TRUE(courant(x, dt, N) < 3.0 * 1.0 + 1.0 + x[5] * x[5]);
  (void)e;
  CHECK_GRADIENT(scaled, 1e-6, 1e-6);
  CHECK_GRADIENT(floored, 1e-6, 1e-6);
  CHECK_GRADIENT(single, 1e-3, 1e-4);
  CHECK_GRADIENT(courant, 1e-6, 1e-6);
  return check_finish();
}
