/* SIMD code that aligns its own addresses: it peels scalar iterations until
 * `p + i` is a multiple of 16 and then loads and stores whole vectors with
 * 16-byte alignment (how Eigen's packet loops work). The primal is aligned
 * by that arithmetic on its own address; the shadow of the same memory,
 * allocated apart (a local array's shadow on the tape, the caller's shadow
 * array), need not be. Derivatives access shadows with the alignment of
 * the scalars they hold (adcore/lib/ShadowAlignment.h): before that fix the
 * gradient of Eigen's partialPivLu().solve() crashed at -O1 and above
 * (an aligned vector load from an 8-byte aligned tape block).
 *
 * Each function differs in how many bytes precede its local array's shadow
 * on the tape, so at least one shadow lies 8 bytes off a multiple of 16.
 * Gradients against analytic values, central differences and forward mode,
 * with the caller's shadow offset by 0 and 1 elements from its primal. */
#include "rev_check.h"

#include <stdint.h>

typedef double v2d __attribute__((vector_size(16)));

/* sum of p[i]^2, scaling p by 2 in place on the way (vector stores too) */
static double sumsq_peeled(double *p, int n) {
  int i = 0;
  double s = 0;
  for (; i < n && ((uintptr_t)(p + i) & 15) != 0; ++i) {
    p[i] *= 2;
    s += p[i] * p[i];
  }
  v2d acc = {0, 0};
  for (; i + 2 <= n; i += 2) {
    v2d v = *(v2d *)(p + i) * 2.0;
    *(v2d *)(p + i) = v;
    acc += v * v;
  }
  s += acc[0] + acc[1];
  for (; i < n; ++i) {
    p[i] *= 2;
    s += p[i] * p[i];
  }
  return s;
}

struct block {
  double a[9];
};

/* local storage of 8-byte alignment, with k scalars recorded before it */
#define LOCAL_VARIANT(name, k)                                                 \
  __attribute__((noinline)) static double name(const double *x) {             \
    double pad[k + 1];                                                         \
    for (int j = 0; j <= k; ++j)                                               \
      pad[j] = x[j] * 0.5;                                                     \
    struct block b;                                                            \
    for (int j = 0; j < 9; ++j)                                                \
      b.a[j] = sin(x[j]) + pad[j % (k + 1)];                                   \
    return sumsq_peeled(b.a, 9);                                               \
  }
LOCAL_VARIANT(local0, 0)
LOCAL_VARIANT(local1, 1)
LOCAL_VARIANT(local2, 2)

/* sum of p[i]^4 read with aligned vector loads of the caller's array */
static double direct(const double *p) {
  int i = 0, n = 9;
  double s = 0;
  for (; i < n && ((uintptr_t)(p + i) & 15) != 0; ++i)
    s += p[i] * p[i] * p[i] * p[i];
  v2d acc = {0, 0};
  for (; i + 2 <= n; i += 2) {
    v2d v = *(const v2d *)(p + i);
    acc += v * v * v * v;
  }
  s += acc[0] + acc[1];
  for (; i < n; ++i)
    s += p[i] * p[i] * p[i] * p[i];
  return s;
}

/* d/dx_j of local_k: with u_j = sin(x_j) + x_{j mod (k+1)} / 2, the value is
 * sum 4 u_j^2 */
static void exact_local(const double *x, int k, double *g) {
  for (int j = 0; j < 9; ++j)
    g[j] = 0;
  for (int j = 0; j < 9; ++j) {
    double u = sin(x[j]) + 0.5 * x[j % (k + 1)];
    g[j] += 8 * u * cos(x[j]);
    g[j % (k + 1)] += 8 * u * 0.5;
  }
}

#define CHECK_VARIANT(f, k)                                                    \
  do {                                                                         \
    double x[9], g[9] = {0}, e[9], v[9];                                       \
    for (int j = 0; j < 9; ++j)                                                \
      x[j] = rev_rand();                                                       \
    __enzyme_autodiff((void *)f, x, g);                                        \
    exact_local(x, k, e);                                                      \
    CHECK_GRAD(f, x, 9, g, e);                                                 \
    double dir = rev_dir(g, v, 9);                                             \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, x, v), dir, REV_TOL_DOT);          \
  } while (0)

/* the caller's primal and shadow at every offset from a multiple of 16 */
static void check_direct(int xoff, int goff) {
  _Alignas(16) double xs[12], gs[12] = {0};
  double *x = xs + xoff, *g = gs + goff, e[9];
  for (int j = 0; j < 9; ++j)
    x[j] = rev_rand();
  for (int j = 0; j < 9; ++j)
    e[j] = 4 * x[j] * x[j] * x[j];
  __enzyme_autodiff((void *)direct, x, g);
  CHECK_GRAD(direct, x, 9, g, e);
}

int main(void) {
  for (int rep = 0; rep < 2; ++rep) {
    CHECK_VARIANT(local0, 0);
    CHECK_VARIANT(local1, 1);
    CHECK_VARIANT(local2, 2);
  }
  for (int xoff = 0; xoff < 2; ++xoff)
    for (int goff = 0; goff < 2; ++goff)
      check_direct(xoff, goff);
  return check_finish();
}
