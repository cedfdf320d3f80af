/* A number computed from an address (how many elements precede the first
 * 16-byte aligned one, as Eigen's first_aligned and the column loops of
 * its Householder reflectors compute it, `(start + step) % 2`: an xor in a
 * loop phi from -O1 on) and only used as a count has no derivative;
 * forward mode refused it at -O1 ("an address kept in an integer is
 * changed by the integer operation 'xor'"). Both alignments of the array,
 * forward against reverse and central differences. (An address changed by
 * xor and turned back into a pointer stays an error: lit
 * errors/address-xor.c.) */
#include "check.h"

#include <stdint.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { ROWS = 3, COLS = 3, N = ROWS * COLS };

__attribute__((noinline)) static double f(const double *x, int cols) {
  int start = (int)(((uintptr_t)x / sizeof(double)) & 1);
  double s = 0;
  for (int c = 0; c < cols; ++c) {
    const double *col = x + c * ROWS;
    for (int i = 0; i < start; ++i)
      s += col[i] * col[i];
    for (int i = start; i < ROWS; ++i)
      s += 3 * col[i] * x[0];
    start = (unsigned)(start + ROWS) % 2u;
  }
  return s;
}

static void check_at(double *x) {
  double dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, COLS);
  const double h = 1e-6;
  for (int i = 0; i < N; ++i) {
    double e[N] = {0}, save = x[i];
    e[i] = 1;
    double t =
        __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, COLS);
    x[i] = save + h;
    double fp = f(x, COLS);
    x[i] = save - h;
    double fm = f(x, COLS);
    x[i] = save;
    CHECK_CLOSE(t, dx[i], 1e-12);
    CHECK_CLOSE(t, (fp - fm) / (2 * h), 1e-7);
  }
}

int main(void) {
  _Alignas(16) double buf[N + 1] = {0.3, -1.2, 0.8, 2.5, -0.4,
                                     1.1, 0.9, -0.7, 1.6, 0.2};
  check_at(buf);
  check_at(buf + 1);
  return check_finish();
}
