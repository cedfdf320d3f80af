/* Per-iteration records in arrays sized by a trip count known only at run
 * time: the derivative pushes them with the inline fast path (size rounded
 * by the generated code) or, when the chunk is full, through the runtime.
 * Trip counts 0, 1, 7 and 300000 in turn (2.4 MB of records, beyond the
 * first chunks), each gradient checked against its closed form, and the
 * tape empty after every call. */
#include "rev_check.h"

#include <adcc.h>

/* x[i] <- x[i] - 0.1 x[i]^2 in place, m times over the first n entries:
 * each sweep records x[i] per iteration (it is overwritten). */
static double sweeps(double *x, int n, int m) {
  for (int s = 0; s < m; ++s)
    for (int i = 0; i < n; ++i)
      x[i] = x[i] - 0.1 * x[i] * x[i];
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += x[i];
  return t;
}

int main(void) {
  static double x[300000], dx[300000], x0[300000];
  const int sizes[] = {0, 1, 7, 300000, 7, 0, 300000, 1};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
    int n = sizes[k];
    for (int i = 0; i < n; ++i) {
      x0[i] = x[i] = 0.5 + 0.4 * rev_rand();
      dx[i] = 0;
    }
    __enzyme_autodiff((void *)sweeps, enzyme_dup, x, dx, enzyme_const, n,
                      enzyme_const, 3);
    /* d/dx0 of three steps of u <- u - 0.1 u^2: the product of 1 - 0.2 u */
    for (int i = 0; i < n; i += n > 10 ? 9973 : 1) {
      double u = x0[i], want = 1;
      for (int s = 0; s < 3; ++s) {
        want *= 1 - 0.2 * u;
        u = u - 0.1 * u * u;
      }
      CHECK_CLOSE(dx[i], want, REV_TOL_EXACT);
    }
    adcc_tape_stats st;
    adcc_tape_get_stats(adcc_tape_thread(), &st);
    CHECK_CLOSE((double)st.live_bytes, 0, 0);
  }
  printf("tape sizes: ok\n");
  return check_finish();
}
