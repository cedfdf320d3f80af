/* Reverse mode through the loop shapes that the reverse sweep counts
 * (trip counts recorded at the exits, induction variables and addresses
 * rebuilt from the reverse iteration): consecutive loops (one loop's exit
 * entering the next loop's header), nested loops with triangular bounds,
 * a break out of two loops, a loop exited by return, counting down,
 * stepping by 3, pointer induction variables, a loop whose trip count is
 * zero, a do-while, a loop with a data-dependent exit, a triangular
 * in-place update (a loop-invariant record), and a GMM-like nest
 * that reuses a heap buffer in every iteration.  Central differences and
 * forward mode (dot-product test). */
#include "rev_check.h"

#include <stdlib.h>

#define N 9

static double two_loops(const double *x) {
  double s = 0, t = 1;
  for (int i = 0; i < N; ++i)
    s += x[i] * x[i];
  for (int i = N - 1; i >= 0; --i)
    t = t * 0.5 + sin(x[i]) * s;
  return t;
}

static double triangle(const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j)
      s += x[i] * cos(x[j]) / (1 + i + j);
  return s;
}

static double break_two(const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      if (i * N + j == 40)
        goto out;
      s += x[j] * x[(i + j) % N] * 0.1;
    }
  }
out:
  return s + x[0];
}

static double early_return(const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i) {
    s = s * x[i] + 1;
    if (i == 6)
      return s * x[8];
  }
  return s;
}

static double stride3(const double *x) {
  double s = 0;
  for (int i = 1; i < N; i += 3)
    s += exp(0.1 * x[i]) * x[i - 1];
  return s;
}

static double pointer_iv(const double *x) {
  double s = 0;
  for (const double *p = x, *e = x + N; p != e; ++p)
    s += *p * *p * (p - x + 1);
  return s;
}

static int zero_trips = 0;
static double empty_loop(const double *x) {
  double s = x[1] * x[2];
  for (int i = 0; i < zero_trips; ++i)
    s += x[i] * 100;
  return s;
}

static double do_while(const double *x) {
  double s = 0;
  int i = 0;
  do {
    s = s + x[i] * x[(i + 1) % N];
    i += 2;
  } while (i < N);
  return s;
}

/* the exit depends on the values, not only on the index */
static double data_exit(const double *x) {
  double s = 0;
  int i = 0;
  while (i < N && s < 2.5) {
    s += x[i] * x[i] + 0.25;
    ++i;
  }
  return s * x[N - 1];
}

/* in place, triangular: a = v[c] is recorded once per run of the inner
 * loop (at its exit), v[r] per iteration */
static int tri_n = N;
static void tri_update(double *v) {
  for (int c = 0; c < tri_n; c++) {
    double a = v[c];
    for (int r = c + 1; r < tri_n; r++)
      v[r] += 0.3 * a * v[r];
  }
}
static double tri(const double *x) {
  double v[N];
  for (int i = 0; i < N; ++i)
    v[i] = x[i];
  tri_update(v);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += v[i] * (i + 1);
  return s;
}

/* like the GMM objective: a scratch buffer rewritten for each (i, k) */
static double gmm_like(const double *mu) {
  enum { D = 3, K = 3, P = 4 };
  static const double pts[P * D] = {0.1, 0.2,  0.3, -0.4, 0.5, 0.6,
                                    0.7, -0.8, 0.9, 1.0,  1.1, -1.2};
  double *xc = malloc(D * sizeof(double));
  double s = 0;
  for (int i = 0; i < P; ++i) {
    for (int k = 0; k < K; ++k) {
      for (int j = 0; j < D; ++j)
        xc[j] = pts[i * D + j] - mu[k * D + j];
      for (int j = 0; j < D; ++j)
        for (int l = 0; l <= j; ++l)
          s += exp(-xc[j] * xc[l]) * 0.5;
    }
  }
  free(xc);
  return s;
}

/* gradient by reverse mode, checked against central differences and,
 * along a random direction, against forward mode */
#define check_one(name, f, n)                                                  \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < (n); ++i)                                              \
      x[i] = 0.3 + 0.7 * rev_rand();                                           \
    __enzyme_autodiff((void *)f, x, g);                                        \
    printf("%-12s d/dx0 = %.12g\n", name, g[0]);                               \
    CHECK_GRAD(f, x, (n), g, NULL);                                            \
    rev_dir(g, v, (n));                                                        \
    CHECK_DOT(g, v, (n), __enzyme_fwddiff((void *)f, x, v));                   \
  } while (0)

int main(void) {
  check_one("two_loops", two_loops, N);
  check_one("triangle", triangle, N);
  check_one("break_two", break_two, N);
  check_one("early_return", early_return, N);
  check_one("stride3", stride3, N);
  check_one("pointer_iv", pointer_iv, N);
  check_one("empty_loop", empty_loop, N);
  zero_trips = 3;
  check_one("empty_loop3", empty_loop, N);
  check_one("do_while", do_while, N);
  check_one("data_exit", data_exit, N);
  check_one("tri", tri, N);
  check_one("gmm_like", gmm_like, N);
  return check_finish();
}
