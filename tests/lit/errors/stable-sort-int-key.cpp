// std::stable_sort of structs mixing doubles and ints by an int field,
// long enough for the merge through the temporary buffer (15 or more):
// the buffer's memmove of count * sizeof bytes is known only by the int
// fields the comparator reads, so its doubles' adjoints cannot be moved.
// An error at the copy in reverse mode (it was a silently wrong gradient);
// forward mode is right (docs/status.md, Known bugs).
// RUN: %expect-exit 1 %adcc++ -O2 -c -Wno-deprecated-declarations %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc++ -O2 -c -Wno-deprecated-declarations -DFORWARD %s -o /dev/null
#include <algorithm>
#include <cmath>

extern int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct item {
  double key;
  int id;
  double val;
};

static double f(const double *x) {
  item a[20];
  for (int i = 0; i < 20; ++i)
    a[i] = {std::sin(x[i]), i, x[i] * x[i]};
  std::stable_sort(a, a + 20, [](const item &p, const item &q) {
    return p.id % 3 < q.id % 3;
  });
  double s = 0;
  for (int j = 0; j < 20; ++j)
    s += (j + 1) * a[j].val;
  return s;
}

#ifdef FORWARD
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
}
#else
// CHECK: error: cannot differentiate 'void std::__merge_sort_loop<{{.*}}' in reverse mode: a memory copy whose contents cannot be typed
void gradient(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}
#endif
