/* An OpenMP region that captures a constant array (passed enzyme_const)
 * through the forking function's stack slot, and keeps a local array it
 * gives to a function that only reads it (the OpenMP GMM's points and
 * main_term, bench/parallel/gmm_omp.c). The region only reading through
 * the constant's pointer gets it constant (no scratch shadow, no adjoint
 * adds: ActivityAnalysis::callKeepsSlotClean); the local array needs no
 * check of pointer marks per store (PrivateBlocks.h). A region that writes
 * values with derivatives into a constant array and reads them back keeps
 * their derivatives (a scratch shadow). Checked at 1, 2 and 4 threads
 * against central differences and analytic values. */
#include "check.h"

#include <math.h>
#include <omp.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#define NOINLINE __attribute__((noinline))

enum { D = 3, K = 4, N = 37 };

/* Reads v only: readonly captures(none) at -O1 and above. */
static double log_sum_exp(const double *v, int n) {
  double mx = v[0];
  for (int i = 1; i < n; i++)
    mx = v[i] > mx ? v[i] : mx;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(v[i] - mx);
  return mx + log(s);
}

/* sum_i lse_k(a[k] - |x_i - mu_k|^2), x constant. */
NOINLINE double mixture(const double *a, const double *mu, const double *x,
                        int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; i++) {
    double t[K];
    for (int k = 0; k < K; k++) {
      double q = 0;
      for (int j = 0; j < D; j++) {
        double c = x[i * D + j] - mu[k * D + j];
        q += c * c;
      }
      t[k] = a[k] - q;
    }
    s += log_sum_exp(t, K);
  }
  return s;
}

/* tmp constant, but written with values that have derivatives and read
 * back by the region. */
NOINLINE double scratch(const double *a, const double *mu, double *tmp,
                        int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    tmp[i] = sin(a[i % K]) * mu[i % (K * D)];
    s += tmp[i] * tmp[i];
  }
  return s;
}

static double a[K], mu[K * D], x[N * D], tmp[N];

static void check_mixture(int threads) {
  double da[K] = {0}, dmu[K * D] = {0};
  omp_set_num_threads(threads);
  __enzyme_autodiff((void *)mixture, enzyme_dup, a, da, enzyme_dup, mu, dmu,
                    enzyme_const, x, enzyme_const, N);
  const double h = 1e-6;
  for (int k = 0; k < K; k++) {
    double keep = a[k];
    a[k] = keep + h;
    double fp = mixture(a, mu, x, N);
    a[k] = keep - h;
    double fm = mixture(a, mu, x, N);
    a[k] = keep;
    CHECK_CLOSE(da[k], (fp - fm) / (2 * h), 1e-6);
  }
  for (int k = 0; k < K * D; k++) {
    double keep = mu[k];
    mu[k] = keep + h;
    double fp = mixture(a, mu, x, N);
    mu[k] = keep - h;
    double fm = mixture(a, mu, x, N);
    mu[k] = keep;
    CHECK_CLOSE(dmu[k], (fp - fm) / (2 * h), 1e-6);
  }
}

static void check_scratch(int threads) {
  double da[K] = {0}, dmu[K * D] = {0};
  omp_set_num_threads(threads);
  __enzyme_autodiff((void *)scratch, enzyme_dup, a, da, enzyme_dup, mu, dmu,
                    enzyme_const, tmp, enzyme_const, N);
  double wa[K] = {0}, wmu[K * D] = {0};
  for (int i = 0; i < N; i++) {
    double sa = sin(a[i % K]), m = mu[i % (K * D)], v = sa * m;
    wa[i % K] += 2 * v * cos(a[i % K]) * m;
    wmu[i % (K * D)] += 2 * v * sa;
  }
  for (int k = 0; k < K; k++)
    CHECK_CLOSE(da[k], wa[k], 1e-12);
  for (int k = 0; k < K * D; k++)
    CHECK_CLOSE(dmu[k], wmu[k], 1e-12);
}

int main(void) {
  for (int k = 0; k < K; k++)
    a[k] = 0.3 * k - 0.4;
  for (int k = 0; k < K * D; k++)
    mu[k] = sin(1.7 * k);
  for (int i = 0; i < N * D; i++)
    x[i] = cos(0.9 * i);
  for (int t = 1; t <= 4; t *= 2) {
    check_mixture(t);
    check_scratch(t);
  }
  return check_finish();
}
