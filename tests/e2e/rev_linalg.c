/* Reverse mode on numerical kernels and runtime concerns: log|det A| by LU
 * with partial pivoting (data-dependent row swaps in place; gradient =
 * A^-T), Cholesky, a binary tree built recursively with malloc and freed,
 * memory freed by a callee, and gradients computed concurrently in four
 * threads (per-thread tapes), each checked against a serial run and
 * forward mode. */
#include "rev_check.h"
#include <pthread.h>
#define N 4
/* log|det A| by LU with partial pivoting, in place on a copy */
static double logdet(const double *A0) {
  double A[N * N];
  memcpy(A, A0, sizeof A);
  double s = 0;
  for (int k = 0; k < N; ++k) {
    int p = k;
    for (int i = k + 1; i < N; ++i)
      if (fabs(A[i * N + k]) > fabs(A[p * N + k]))
        p = i;
    if (p != k)
      for (int j = 0; j < N; ++j) {
        double t = A[k * N + j];
        A[k * N + j] = A[p * N + j];
        A[p * N + j] = t;
      }
    for (int i = k + 1; i < N; ++i) {
      double l = A[i * N + k] / A[k * N + k];
      for (int j = k; j < N; ++j)
        A[i * N + j] -= l * A[k * N + j];
    }
    s += log(fabs(A[k * N + k]));
  }
  return s;
}
/* inverse of A by Gauss-Jordan (no pivot) for the closed form d logdet = A^-T
 */
static void inverse(const double *A0, double *inv) {
  double A[N * N];
  memcpy(A, A0, sizeof A);
  for (int i = 0; i < N * N; ++i)
    inv[i] = (i % (N + 1)) == 0;
  for (int k = 0; k < N; ++k) {
    int p = k;
    for (int i = k + 1; i < N; ++i)
      if (fabs(A[i * N + k]) > fabs(A[p * N + k]))
        p = i;
    for (int j = 0; j < N; ++j) {
      double t = A[k * N + j];
      A[k * N + j] = A[p * N + j];
      A[p * N + j] = t;
      t = inv[k * N + j];
      inv[k * N + j] = inv[p * N + j];
      inv[p * N + j] = t;
    }
    double d = A[k * N + k];
    for (int j = 0; j < N; ++j) {
      A[k * N + j] /= d;
      inv[k * N + j] /= d;
    }
    for (int i = 0; i < N; ++i)
      if (i != k) {
        double l = A[i * N + k];
        for (int j = 0; j < N; ++j) {
          A[i * N + j] -= l * A[k * N + j];
          inv[i * N + j] -= l * inv[k * N + j];
        }
      }
  }
}
/* Cholesky then sum of log diag */
static double chol(const double *A0) {
  double L[N * N] = {0};
  for (int j = 0; j < N; ++j) {
    double s = A0[j * N + j];
    for (int k = 0; k < j; ++k)
      s -= L[j * N + k] * L[j * N + k];
    L[j * N + j] = sqrt(s);
    for (int i = j + 1; i < N; ++i) {
      double t = A0[i * N + j];
      for (int k = 0; k < j; ++k)
        t -= L[i * N + k] * L[j * N + k];
      L[i * N + j] = t / L[j * N + j];
    }
  }
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += L[i * N + i] * L[i * N + i] * (i + 1);
  return r;
}
/* tree built recursively on the heap */
typedef struct T {
  double v;
  struct T *l, *r;
} T;
static T *build(const double *x, int lo, int hi) {
  if (lo >= hi)
    return 0;
  int m = (lo + hi) / 2;
  T *t = malloc(sizeof *t);
  t->v = x[m] * x[m];
  t->l = build(x, lo, m);
  t->r = build(x, m + 1, hi);
  return t;
}
static double tsum(const T *t, int d) {
  return t ? t->v * d + tsum(t->l, d + 1) + tsum(t->r, d + 1) : 0;
}
static void tfree(T *t) {
  if (t) {
    tfree(t->l);
    tfree(t->r);
    free(t);
  }
}
static double treef(const double *x, int n) {
  T *t = build(x, 0, n);
  double s = tsum(t, 1);
  tfree(t);
  return s;
}
__attribute__((noinline)) static double consume(double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i];
  free(p);
  return s;
}
static double freecallee(const double *x, int n) {
  double *p = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    p[i] = sin(x[i]);
  return consume(p, n);
}
/* threads */
static double tf(const double *x, double k) {
  double s = 0;
  for (int i = 0; i < 20000; ++i)
    s += sin(x[i % 3] * k + i * 1e-4);
  return s;
}
typedef struct {
  double x[3], dx[3], k, dk;
} Job;
static void *worker(void *arg) {
  Job *j = arg;
  for (int r = 0; r < 20; ++r) {
    memset(j->dx, 0, sizeof j->dx);
    j->dk = __enzyme_autodiff((void *)tf, j->x, j->dx, j->k);
  }
  return 0;
}
int main(void) {
  double A[N * N] = {2,   1,   0.5, 0.1, 1,   3,   0.2, 0.4,
                     0.3, 0.2, -4,  1,   0.1, 0.9, 1,   2.5},
               dA[N * N] = {0}, inv[N * N];
  __enzyme_autodiff((void *)logdet, A, dA);
  inverse(A, inv);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      CHECK_CLOSE(dA[i * N + j], inv[j * N + i], 1e-12);
  double S[N * N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      S[i * N + j] = 0;
      for (int k = 0; k < N; ++k)
        S[i * N + j] += A[i * N + k] * A[j * N + k];
    }
  double dS[N * N] = {0};
  __enzyme_autodiff((void *)chol, S, dS);
  CHECK_GRAD(chol, S, N * N, dS, NULL);
  {
    double vA[N * N], vS[N * N];
    rev_dir(dA, vA, N * N);
    CHECK_DOT(dA, vA, N * N, __enzyme_fwddiff((void *)logdet, A, vA));
    rev_dir(dS, vS, N * N);
    CHECK_DOT(dS, vS, N * N, __enzyme_fwddiff((void *)chol, S, vS));
  }
  {
    double x[7] = {1, 2, 3, 4, 5, 6, 7}, dx[7] = {0};
    __enzyme_autodiff((void *)treef, x, dx, 7);
    /* depths: m=3 d1; 1,5 d2; 0,2,4,6 d3 */
    int d[7] = {3, 2, 3, 1, 3, 2, 3};
    for (int i = 0; i < 7; ++i)
      CHECK_CLOSE(dx[i], 2 * x[i] * d[i], 0);
    double dy[7] = {0};
    __enzyme_autodiff((void *)freecallee, x, dy, 7);
    for (int i = 0; i < 7; ++i)
      CHECK_CLOSE(dy[i], 2 * sin(x[i]) * cos(x[i]), 1e-14);
    double v[7];
    rev_dir(dx, v, 7);
    CHECK_DOT(dx, v, 7, __enzyme_fwddiff((void *)treef, x, v, 7));
    rev_dir(dy, v, 7);
    CHECK_DOT(dy, v, 7, __enzyme_fwddiff((void *)freecallee, x, v, 7));
  }
  {
    Job jobs[4];
    pthread_t th[4];
    for (int t = 0; t < 4; ++t) {
      for (int i = 0; i < 3; ++i)
        jobs[t].x[i] = 0.1 * t + 0.3 * i;
      jobs[t].k = 1 + t;
      pthread_create(&th[t], 0, worker, &jobs[t]);
    }
    for (int t = 0; t < 4; ++t)
      pthread_join(th[t], 0);
    for (int t = 0; t < 4; ++t) {
      double dx[3] = {0};
      double dk = __enzyme_autodiff((void *)tf, jobs[t].x, dx, jobs[t].k);
      CHECK_CLOSE(jobs[t].dk, dk, 0);
      for (int i = 0; i < 3; ++i)
        CHECK_CLOSE(jobs[t].dx[i], dx[i], 0);
      double v[3] = {0.3, -0.2, 0.5}, dot = 0;
      for (int i = 0; i < 3; ++i)
        dot += dx[i] * v[i];
      CHECK_CLOSE(dot,
                  __enzyme_fwddiff((void *)tf, jobs[t].x, v, jobs[t].k, 0.0),
                  1e-10);
    }
  }
  return check_finish();
}
