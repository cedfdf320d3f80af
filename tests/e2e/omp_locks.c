/* The OpenMP API's locks in differentiated regions (omp_set_lock ...
 * omp_unset_lock as critical sections; the reverse region takes a lock of
 * its own that stands for the program's, which may be gone by then):
 * gradients against central differences and tangents against gradients,
 * with teams of 1, 2 and 4 threads.
 *   local      a sum under a lock made and destroyed in the function;
 *   histogram  bins updated under a lock per bin (an array of locks on the
 *              heap), combined nonlinearly;
 *   product    p = p * v under a global lock: the reverse replays the
 *              sections in the reverse of the order the threads ran them;
 *   helper     the lock taken in a function the region calls, given the
 *              lock's address, beside a running maximum;
 *   mixed_sync a named critical section in a callee beside a lock. */
enum { N = 24 };

#include "omp_check.h"

double local(const double *x, double *y, int n) {
  omp_lock_t l;
  omp_init_lock(&l);
  double s = 0;
  (void)y;
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; ++i) {
    double v = 1 + 0.05 * x[i] * x[(i + 1) % n];
    omp_set_lock(&l);
    s += v * v;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return s * s;
}

enum { BINS = 4 };
double histogram(const double *x, double *y, int n) {
  omp_lock_t *locks = malloc(BINS * sizeof *locks);
  double bins[BINS] = {0};
  for (int b = 0; b < BINS; ++b)
    omp_init_lock(&locks[b]);
  (void)y;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    int b = (i * 7) % BINS;
    double v = sin(x[i]) * x[(i + 3) % n];
    omp_set_lock(&locks[b]);
    bins[b] += v;
    omp_unset_lock(&locks[b]);
  }
  for (int b = 0; b < BINS; ++b)
    omp_destroy_lock(&locks[b]);
  free(locks);
  double s = 0;
  for (int b = 0; b < BINS; ++b)
    s += bins[b] * bins[b] * (1 + b);
  return s;
}

static omp_lock_t product_lock;
double product(const double *x, double *y, int n) {
  double p = 1;
  (void)y;
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = 0; i < n; ++i) {
    double f = 1 + 0.1 * x[i] * x[i];
    omp_set_lock(&product_lock);
    p = p * f;
    omp_unset_lock(&product_lock);
  }
  return p;
}

static void keep_max(omp_lock_t *l, double *m, double v) {
  omp_set_lock(l);
  if (v > *m)
    *m = v;
  omp_unset_lock(l);
}

double helper(const double *x, double *y, int n) {
  omp_lock_t l;
  omp_init_lock(&l);
  double m = -1e300;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * (1 + 0.01 * i);
    keep_max(&l, &m, y[i] * y[i]);
  }
  omp_destroy_lock(&l);
  return m + y[0];
}

/* A named critical section in a callee (a product: replayed in order)
 * beside a lock in the caller's region. */
static void add_crit(double *acc, double v) {
#pragma omp critical(acc)
  *acc = *acc * (1 + 0.1 * v);
}
double mixed_sync(const double *x, double *y, int n) {
  double acc = 1, s = 0;
  omp_lock_t l;
  omp_init_lock(&l);
  (void)y;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    add_crit(&acc, x[i] * x[i]);
    omp_set_lock(&l);
    s += x[i] * 0.5;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return acc + s * s;
}

DERIVATIVES(local)
DERIVATIVES(histogram)
DERIVATIVES(product)
DERIVATIVES(helper)
DERIVATIVES(mixed_sync)

int main(void) {
  omp_init_lock(&product_lock);
  CHECK_GRADIENT(local, 1e-6, 1e-6);
  CHECK_GRADIENT(histogram, 1e-6, 1e-6);
  CHECK_GRADIENT(product, 1e-6, 1e-6);
  CHECK_GRADIENT(helper, 1e-6, 1e-6);
  CHECK_GRADIENT(mixed_sync, 1e-6, 1e-6);
  omp_destroy_lock(&product_lock);
  return check_finish();
}
