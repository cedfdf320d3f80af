/*===- measure.h - Clock, medians, JSON and name selection -------------===*
 *
 * The measurement helpers bench/forward and bench/reverse share.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_BENCH_MEASURE_H
#define ADCC_BENCH_MEASURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int not_finite(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, c = *(const double *)y;
  return (a > c) - (a < c);
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void json_num(FILE *f, const char *key, double v, int last) {
  if (not_finite(v))
    fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
  else
    fprintf(f, "\"%s\": %.6g%s", key, v, last ? "" : ", ");
}

static int selected(const char *only, const char *name) {
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
