/* A local object that holds a pointer to a buffer inside itself, handed to
 * a function that reads the pointer and packs numbers with derivatives
 * into the buffer (Eigen's gemm_blocking_space: its fixed-size packing
 * buffers are members, reached through blockA(); the triangular products
 * `llt.matrixU() * B` and `llt.reconstructedMatrix()` go through it). The
 * object was taken to hold no derivatives (its own address stored into it
 * was read as no escape, and the callee as storing nothing into it): at -O1
 * and up the packed numbers' adjoints went to a sink and the gradient was
 * 0 without an error (mherb/kalman's square-root filters: docs/testing.md).
 * Checked: reverse and forward mode against the analytic gradient, with
 * the buffer reached through the object or allocated by the callee when
 * the object has none (the phi Eigen's ei_declare_aligned_stack_... makes),
 * and through two calls deep. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct blocking {
  double *block;
  long size;
  double own[8];
};

__attribute__((noinline)) static void pack(double *dst, const double *a,
                                           int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = 2 * a[i];
}

__attribute__((noinline)) static void kernel(const double *a, double *res,
                                             struct blocking *b, int deep) {
  double *buf = b->block ? b->block
                         : (double *)__builtin_alloca(4 * sizeof(double));
  if (deep)
    pack(buf, a, 4);
  else
    for (int i = 0; i < 4; ++i)
      buf[i] = 2 * a[i];
  for (int i = 0; i < 4; ++i)
    res[i] += buf[i] * buf[(i + 1) % 4];
}

/* sum_i (i+1) * 4 a_i a_{i+1}. */
static double product(const double *a, int deep, int own) {
  struct blocking b;
  memset(&b, 0, sizeof(double *) + sizeof(long));
  b.size = 4;
  if (own)
    b.block = b.own;
  double res[4] = {0, 0, 0, 0};
  kernel(a, res, &b, deep);
  return res[0] + 2 * res[1] + 3 * res[2] + 4 * res[3];
}

int main(void) {
  const double a[4] = {1.0, -2.0, 0.5, 3.0};
  for (int deep = 0; deep < 2; ++deep)
    for (int own = 0; own < 2; ++own) {
      double want[4];
      for (int i = 0; i < 4; ++i) {
        int prev = (i + 3) % 4, next = (i + 1) % 4;
        /* term k = i: (i+1) 4 a_i a_next; term k = prev: (prev+1) 4 a_prev
         * a_i */
        want[i] = 4 * ((i + 1) * a[next] + (prev + 1) * a[prev]);
      }
      double x[4], g[4] = {0, 0, 0, 0};
      memcpy(x, a, sizeof x);
      __enzyme_autodiff((void *)product, enzyme_dup, x, g, enzyme_const,
                        deep, enzyme_const, own);
      for (int i = 0; i < 4; ++i)
        CHECK_CLOSE(g[i], want[i], 1e-14);
      for (int i = 0; i < 4; ++i) {
        double t[4] = {0, 0, 0, 0};
        t[i] = 1;
        double d = __enzyme_fwddiff((void *)product, enzyme_dup, x, t,
                                    enzyme_const, deep, enzyme_const, own);
        CHECK_CLOSE(d, want[i], 1e-14);
      }
    }
  return check_finish();
}
