// realloc in reverse mode needs to know what the moved bytes are (doubles,
// floats, pointers) to give their adjoints back to the old block: a block
// whose contents cannot be typed, or an array of structs that mix
// floating-point and other fields, is an error at the realloc. (Supported
// uses: tests/e2e/rev_realloc.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>
double __enzyme_autodiff(void *, ...);

// (At -O2 the optimizer removes this block.)
double untyped(double x, int n) {
  unsigned char *b = (unsigned char *)malloc(n);
  memset(b, 0, n);
  // O0: realloc.c:[[@LINE+1]]:24: error: cannot differentiate 'untyped' in reverse mode: a realloc whose contents cannot be typed
  b = (unsigned char *)realloc(b, 2 * n);
  free(b);
  return x * x;
}
double duntyped(double x) { return __enzyme_autodiff((void *)untyped, x, 4); }

typedef struct {
  double x;
  int k;
} item;
double mixed(const double *x, int n) {
  item *a = (item *)malloc(n * sizeof(item));
  for (int i = 0; i < n; ++i) {
    a[i].x = x[i] * x[i];
    a[i].k = i;
  }
  // CHECK: realloc.c:[[@LINE+1]]:15: error: cannot differentiate 'mixed' in reverse mode: a realloc of an array of structs that mix floating-point and other fields is not supported yet in reverse mode
  a = (item *)realloc(a, 2 * n * sizeof(item));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i].x * a[i].k;
  free(a);
  return s;
}
double dmixed(const double *x, double *dx) {
  return __enzyme_autodiff((void *)mixed, x, dx, 3);
}
