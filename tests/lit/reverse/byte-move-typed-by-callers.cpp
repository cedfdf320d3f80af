// A move of a run-time number of bytes through a `char *` that nothing in
// the helper types but the int it reads (the structs live in memory the
// caller allocated with malloc, the element size is an argument). Until
// 2026-12-06 an error in reverse mode ("a memory copy whose contents cannot
// be typed"); since then the helper's bytes are typed field by field from
// what its caller reads and writes there (analysis/FieldPointees.cpp: the
// caller's item array, doubles at 0 and 16, an int at 8), and the gradient
// is right: reverse against central differences and forward mode. A move
// whose callers disagree on the kinds stays an error (lit
// errors/union-float-copies.c).
// RUN: %adcc++ -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %adcc++ -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK: ok
#include <cmath>
#include <cstdlib>
#include <cstdio>
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

long count = 14;

int main() {
  double x[20], g[20] = {0};
  for (int i = 0; i < 20; i++)
    x[i] = 0.1 * i + 0.3;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  int bad = 0;
  for (int i = 0; i < 20; i++) {
    double xp[20], xm[20], t[20] = {0};
    std::memcpy(xp, x, sizeof x);
    std::memcpy(xm, x, sizeof x);
    xp[i] += 1e-6;
    xm[i] -= 1e-6;
    t[i] = 1;
    double fd = (f(xp) - f(xm)) / 2e-6;
    double tg = __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
    if (std::fabs(fd - g[i]) > 1e-5 * (1 + std::fabs(fd)) ||
        std::fabs(tg - g[i]) > 1e-8 * (1 + std::fabs(tg))) {
      ++bad;
      std::printf("x[%d]: reverse %g forward %g differences %g\n", i, g[i],
                  tg, fd);
    }
  }
  std::printf(bad ? "FAIL\n" : "ok\n");
  return bad != 0;
}
