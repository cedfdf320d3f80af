// Addresses kept as uintptr_t and moved by the C++ library (issue 33), in
// reverse and forward mode:
//  (a) sorted with std::sort (until 2026-12-07 wrong without an error at
//      every level: the insertion sort's moved element, a phi from -O1
//      on, and at -O0 its std::move_backward (a memmove) and its local,
//      had no shadow, so the shadow array stayed unsorted);
//  (b) sorted with qsort and a comparator;
//  (c) partitioned with std::nth_element;
//  (d) sorted with std::make_heap and std::sort_heap (at -O0 an element
//      passed by value to __adjust_heap, which stored it back without its
//      shadow: wrong without an error until 2026-12-07).
// Each gradient against central differences, the analytic values and the
// tangents, at -O0 to -O3.
#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

static double readThrough(const uintptr_t *a, const double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (i + 1) * std::sin(*(const double *)a[i]) * x[i];
  return s;
}

static double stdSort(double *x) {
  uintptr_t a[N] = {uintptr_t(x + 2), uintptr_t(x), uintptr_t(x + 1)};
  std::sort(a, a + N);
  return readThrough(a, x);
}

static int compare(const void *p, const void *q) {
  uintptr_t u = *(const uintptr_t *)p, v = *(const uintptr_t *)q;
  return (u > v) - (u < v);
}

static double cSort(double *x) {
  uintptr_t a[N] = {uintptr_t(x + 1), uintptr_t(x + 2), uintptr_t(x)};
  std::qsort(a, N, sizeof a[0], compare);
  return readThrough(a, x);
}

static double nthElement(double *x) {
  uintptr_t a[N] = {uintptr_t(x + 2), uintptr_t(x), uintptr_t(x + 1)};
  std::nth_element(a, a + 1, a + N);
  return readThrough(a, x);
}

static double heapSort(double *x) {
  uintptr_t a[N] = {uintptr_t(x + 1), uintptr_t(x + 2), uintptr_t(x)};
  std::make_heap(a, a + N);
  std::sort_heap(a, a + N);
  return readThrough(a, x);
}

#include "int_addresses_check.h"

int main() {
  // Sorted, a[i] is x + i: d/dx_i = (i + 1) (cos(x_i) x_i + sin(x_i)).
  double want[N];
  for (int i = 0; i < N; ++i) {
    double x = int_addresses_x0[i];
    want[i] = (i + 1) * (std::cos(x) * x + std::sin(x));
  }
  check_gradient(stdSort, "std::sort", want);
  check_gradient(cSort, "qsort", want);
  check_gradient(nthElement, "std::nth_element", want);
  check_gradient(heapSort, "std::make_heap, std::sort_heap", want);
  return check_finish();
}
