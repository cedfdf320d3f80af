/*===- measure.h - Clock, medians, JSON and name selection -------------===*
 *
 * The measurement helpers the benchmark programs share.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_MEASURE_H
#define ADCC_BENCH_MEASURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Whether d is a NaN or an infinity, by its bits. The empty asm keeps the
 * test on the integer: without it LLVM turns the bit test back into a
 * floating-point class test, which -ffast-math (no NaNs, no infinities)
 * folds to false, and a benchmark built with it wrote "nan" into its
 * JSON. */
static inline int not_finite(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  __asm__("" : "+r"(bits));
  return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull;
}

/* max |got - want| / max(max |want|, floor); a NaN or infinity anywhere
 * gives 1e300. */
static inline double rel_err(const double *got, const double *want, long len,
                             double floor) {
  double e = 0, m = floor;
  for (long i = 0; i < len; i++) {
    if (not_finite(got[i]) || not_finite(want[i]))
      return 1e300;
    double d = fabs(got[i] - want[i]);
    e = d > e ? d : e;
    m = fabs(want[i]) > m ? fabs(want[i]) : m;
  }
  return e / m;
}

/* NaN by its bits, so that checks also hold under -ffast-math. */
static inline double nan_value(void) {
  uint64_t bits = 0x7ff8000000000000ull;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* Deterministic pseudo-random numbers in [lo, hi) (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static inline double urand(double lo, double hi) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
  return lo + (hi - lo) * (double)(r >> 11) * 0x1.0p-53;
}

/* A zeroed, 64-byte aligned array of len doubles (at least one), to be
 * given back with release(); exits with status 2 when memory runs out.
 *
 * Successive arrays start at different offsets modulo 4 KiB (steps of
 * 5 cache lines, 64 positions). Large blocks come from mmap at the same
 * offset within a page, so without this the elements of equal index of
 * every array would share one L1 set: a width-8 stencil tangent touching
 * 40 such streams ran 6x slower than with the offsets, measuring the
 * allocator rather than the code (primal, hand-written and generated
 * derivatives alike use these arrays). */
static inline double *alloc(long len) {
  static unsigned stagger;
  stagger = (stagger + 5) % 64;
  size_t bytes = (size_t)(len > 0 ? len : 1) * sizeof(double);
  size_t pad = 64 + 64 * (size_t)stagger;
  char *raw = NULL;
  if (posix_memalign((void **)&raw, 64, pad + ((bytes + 63) & ~(size_t)63)) !=
      0) {
    fprintf(stderr, "benchmark: out of memory\n");
    exit(2);
  }
  double *p = (double *)(raw + pad);
  memcpy((char *)p - sizeof raw, &raw, sizeof raw);
  memset(p, 0, bytes);
  return p;
}

/* Frees an array from alloc() (NULL is ignored). */
static inline void release(double *p) {
  char *raw;
  if (!p)
    return;
  memcpy(&raw, (char *)p - sizeof raw, sizeof raw);
  free(raw);
}

/* Calibration: the repetitions to try after \p reps took \p t seconds,
 * for one sample to take at least min_time seconds. */
static inline long next_reps(long reps, double t, double min_time) {
  double grow = t > 0 ? 1.25 * min_time / t : 100;
  grow = grow < 2 ? 2 : grow > 100 ? 100 : grow;
  return (long)(reps * grow) + 1;
}

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, c = *(const double *)y;
  return (a > c) - (a < c);
}

static inline double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline void json_num(FILE *f, const char *key, double v, int last) {
  if (not_finite(v))
    fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
  else
    fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

static inline int selected(const char *only, const char *name) {
  if (!only)
    return 1;
  size_t ln = strlen(name);
  for (const char *p = only; *p;) {
    size_t l = strcspn(p, ",");
    if (l == ln && !strncmp(p, name, l))
      return 1;
    p += l + (p[l] == ',');
  }
  return 0;
}

#endif /* ADCC_BENCH_MEASURE_H */
