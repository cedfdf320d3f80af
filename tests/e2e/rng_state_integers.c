/* Random weights drawn inside the differentiated function by a
 * xoroshiro128+ generator as KANN writes it: its state a global struct
 * whose integers sit beside a double (kad_rng_t), and a copy of it in heap
 * memory reached through a `void *`; the state's words rotated (llvm.fshl
 * from -O1) and a double made from their bits. The integers carry no
 * derivative: the global's declared type says so, and the heap copy's
 * words are read by a `uint64_t` access type and rotated. Until 2026-12-07
 * "the intrinsic 'llvm.fshl.i64' is not supported yet" from -O1; and at
 * -O0, where the state's words reach the union through the call of
 * `next`, "integer bits reinterpreted as a floating-point value" (the
 * integer a defined function returns was taken as active whenever an
 * argument was). Reverse and forward mode against the analytic gradient
 * and central differences, the generator's state the same for each. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t s[2];
  double n_gset;
  int n_iset, polar;
} rng_t;

static rng_t rng = {{0x50f5647d2380309dULL, 0x91ffa96fc4c62cceULL}, 0, 0, 0};

static inline uint64_t next(rng_t *r) {
  const uint64_t s0 = r->s[0];
  uint64_t s1 = r->s[1];
  const uint64_t result = s0 + s1;
  s1 ^= s0;
  r->s[0] = (s0 << 55 | s0 >> 9) ^ s1 ^ (s1 << 14);
  r->s[1] = s0 << 36 | s0 >> 28;
  return result;
}

static double drand(void *d) {
  union {
    uint64_t i;
    double d;
  } u;
  u.i = 0x3FFULL << 52 | next(d ? (rng_t *)d : &rng) >> 12;
  return u.d - 1.0;
}

static void *new_rng(void) {
  rng_t *r = calloc(1, sizeof *r);
  next(&rng);
  r->s[0] = rng.s[0], r->s[1] = rng.s[1];
  return r;
}

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double weights[4];

/* sum w_i x_i^2 with w drawn here: the global generator, then a copy. */
static double loss(const double *x, int n) {
  void *r = new_rng();
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double w = drand(0) + drand(r);
    weights[i] = w;
    s += w * x[i] * x[i];
  }
  free(r);
  return s;
}

int main(void) {
  double x[4] = {0.5, -1, 2, 0.25}, g[4] = {0};
  rng_t start = rng;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, 4);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(g[i], 2 * weights[i] * x[i], 1e-12);
  for (int i = 0; i < 4; ++i) {
    double dx[4] = {0}, xp[4], xm[4], h = 1e-6;
    dx[i] = 1;
    rng = start;
    double t = __enzyme_fwddiff((void *)loss, enzyme_dup, x, dx,
                                enzyme_const, 4);
    CHECK_CLOSE(t, 2 * weights[i] * x[i], 1e-12);
    memcpy(xp, x, sizeof x), memcpy(xm, x, sizeof x);
    xp[i] += h, xm[i] -= h;
    rng = start;
    double up = loss(xp, 4);
    rng = start;
    double down = loss(xm, 4);
    CHECK_CLOSE((up - down) / (2 * h), g[i], 1e-6);
  }
  return check_finish();
}
