/* qsort and glibc's qsort_r in differentiated code (prepare/SortCalls.cpp):
 * the elements move in the order the program's comparator gives, and their
 * tangents, adjoints and shadow pointers move with them.
 *
 * - sorted: a weighted sum of sorted values; at a point where two of them
 *   tie (x0 x1 and x3 x1 with x3 = x0) each weight goes to the element that
 *   the sort put there (the runtime's order is stable: the first stays
 *   first);
 * - median: the middle of five values;
 * - records: structs of a key, an int and a pointer into the active input,
 *   sorted by key, then read through the moved pointers (the pointers'
 *   shadows must move with them in both modes);
 * - sort_r: qsort_r with a comparator that reads its third argument.
 *
 * Each against central differences, forward against reverse, and the tie
 * against the order the primal produced. */
#define _GNU_SOURCE
#include "rev_check.h"

#include <math.h>
#include <stdlib.h>


static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double sorted(const double *x) {
  double y[5] = {x[0] * x[1], sin(x[2]), x[3] * x[1], x[3] - x[4], x[4]};
  qsort(y, 5, sizeof(double), ascending);
  double s = 0;
  for (int i = 0; i < 5; ++i)
    s += (i + 1) * y[i];
  return s;
}

static double median(const double *x) {
  double y[5];
  for (int i = 0; i < 5; ++i)
    y[i] = x[i] * x[i] + x[(i + 2) % 5];
  qsort(y, 5, sizeof(double), ascending);
  return y[2];
}

struct record {
  double key;
  int id;
  const double *value;
};

static int by_key(const void *a, const void *b) {
  const struct record *p = a, *q = b;
  return (p->key > q->key) - (p->key < q->key);
}

static double records(const double *x) {
  struct record r[4];
  for (int i = 0; i < 4; ++i) {
    r[i].key = cos(x[i]) + 0.1 * i;
    r[i].id = i;
    r[i].value = &x[(i + 1) % 5];
  }
  qsort(r, 4, sizeof(struct record), by_key);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * r[i].key * *r[i].value;
  return s;
}

static int by_weight(const void *a, const void *b, void *arg) {
  double w = *(const double *)arg;
  double x = w * *(const double *)a, y = w * *(const double *)b;
  return (x > y) - (x < y);
}

static double sort_r(const double *x) {
  double y[5];
  for (int i = 0; i < 5; ++i)
    y[i] = exp(0.3 * x[i]) - x[(i + 3) % 5];
  double sign = -1; /* descending */
  qsort_r(y, 5, sizeof(double), by_weight, &sign);
  return y[0] * 3 + y[1] * y[4];
}

/* The gradient against central differences, and along a random direction
 * against forward mode. */
static void check(double (*f)(const double *), double *x, int n) {
  double dx[5] = {0}, v[5];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  CHECK_GRAD(f, x, n, dx, NULL);
  double dir = rev_dir(dx, v, n);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, v), dir, REV_TOL_DOT);
}

int main(void) {
  double x[5] = {0.7, -0.4, 1.3, 0.2, 0.9};
  check(sorted, x, 5);
  check(median, x, 5);
  check(records, x, 5);
  check(sort_r, x, 5);

  /* The tie: with x3 = x0, y = {-0.28, sin 1.3, -0.28, -0.2, 0.9}; sorted:
   * y0 (weight 1), y2 (2), y3 (3), y4 (4), y1 (5). */
  double tie[5] = {0.7, -0.4, 1.3, 0.7, 0.9}, dt[5] = {0};
  __enzyme_autodiff((void *)sorted, enzyme_dup, tie, dt);
  CHECK_CLOSE(dt[0], 1 * -0.4, 1e-12);
  CHECK_CLOSE(dt[1], 1 * 0.7 + 2 * 0.7, 1e-12);
  CHECK_CLOSE(dt[2], 5 * cos(1.3), 1e-12);
  CHECK_CLOSE(dt[3], 2 * -0.4 + 3, 1e-12);
  CHECK_CLOSE(dt[4], -3 + 4, 1e-12);
  for (int i = 0; i < 5; ++i) {
    double t[5] = {0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)sorted, enzyme_dup, tie, t), dt[i],
                1e-12);
  }
  return check_finish();
}
