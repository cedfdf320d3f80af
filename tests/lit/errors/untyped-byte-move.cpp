// A move of a run-time number of bytes through a `char *` that nothing in
// the function types but the int it reads (the structs' doubles live in
// memory the caller allocated with malloc, the element size is an
// argument): which of the moved bytes are doubles is not known, so their
// adjoints cannot be moved; an error at the copy in reverse mode, never a
// silently wrong gradient. (std::stable_sort of structs by an int field,
// which gave this error before, is typed by its element copies and its
// pointer differences: e2e compat_sort_algorithms.cpp.) Forward mode moves
// the tangents with the bytes.
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc++ -O2 -c -DFORWARD %s -o /dev/null
#include <cmath>
#include <cstdlib>
#include <cstring>

extern int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
extern long count;

struct item {
  double key;
  int id;
  double val;
};

// CHECK: error: cannot differentiate 'drop_first(char*, long, long)' in reverse mode: a memory copy whose contents cannot be typed
__attribute__((noinline)) void drop_first(char *buf, long bytes, long size) {
  long k = 0;
  while (*(int *)(buf + k * size + 8) % 2 == 0)
    ++k;
  std::memmove(buf, buf + (k + 1) * size, bytes);
}

static double f(const double *x) {
  item *a = (item *)std::malloc(20 * sizeof(item));
  for (int i = 0; i < 20; ++i)
    a[i] = {std::sin(x[i]), 2 * i + (i == 4), x[i] * x[i]};
  drop_first((char *)a, long(count * sizeof(item)), long(sizeof(item)));
  double s = 0;
  for (int j = 0; j < 15; ++j)
    s += (j + 1) * a[j].val;
  std::free(a);
  return s;
}

#ifdef FORWARD
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
}
#else
void gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}
#endif
