/* A hand-written binary min-heap of addresses kept as uintptr_t (sift up
 * on insert, sift down on removal), read through in heap order. */
#include <math.h>
#include <stdint.h>
#define N 5
static void push(uintptr_t *h, int *n, uintptr_t v) {
  int i = (*n)++;
  while (i > 0 && h[(i - 1) / 2] > v) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = v;
}
static uintptr_t pop(uintptr_t *h, int *n) {
  uintptr_t top = h[0], last = h[--*n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n)
      break;
    if (c + 1 < *n && h[c + 1] < h[c])
      ++c;
    if (h[c] >= last)
      break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
  return top;
}
static double f(double *x) {
  uintptr_t h[N];
  int n = 0;
  const int order[N] = {3, 0, 4, 1, 2};
  for (int i = 0; i < N; ++i)
    push(h, &n, (uintptr_t)(x + order[i]));
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (i + 1) * sin(*(const double *)pop(h, &n)) * x[i];
  return s;
}
#include "probe.h"
