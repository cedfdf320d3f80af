// A getter of another file's static data holding pointers (`struct holder
// { double *buf; int n; }`, whose buffer has no shadow), read by another
// file's function in the differentiated code (`hdot(get_holder(), x)`),
// its numbers written by code no derivative is made of: `main` itself
// (`h->buf[i] = 1.0 / (i + 1)`) and a helper `main` calls. Until
// 2026-12-07 every call of the getter in the program had to only pass the
// pointer to functions that read through it (analysis/ReadOnlyResults.cpp),
// and the link step refused the call in the differentiated function:
// "cannot differentiate the call of 'get_holder': the caller stores values
// with derivatives into the memory its result points to ...". Numbers
// written there have no derivative; the derivatives read zeros through the
// getter's null shadow. Reverse against forward mode, central differences
// and the exact derivative at -O0 and -O2.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c h.c -o h0.o && %adcc -O0 main.c h0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c h.c -o h2.o && %adcc -O2 main.c h2.o -lm -o prog2 && ./prog2 | FileCheck %s
// CHECK: main ok
// CHECK-NEXT: helper ok
// A pointer stored there by such code (the buffer the differentiated code
// writes through another name, `out`, then read through the getter) would
// lose its derivatives: still the located error.
// RUN: not %adcc -O0 alias.c h0.o -lm -o alias0 2>&1 | FileCheck --check-prefix=ALIAS %s
// RUN: not %adcc -O2 alias.c h2.o -lm -o alias2 2>&1 | FileCheck --check-prefix=ALIAS %s
// ALIAS: alias.c:6:15: error: cannot differentiate the call of 'get_holder'

//--- h.h
struct holder {
  double *buf;
  int n;
};
struct holder *get_holder(void);
double hdot(const struct holder *h, double x);

//--- h.c
#include "h.h"
static double buffer[3];
static struct holder holder = {buffer, 3};
struct holder *get_holder(void) { return &holder; }
// sum_i buf[i] x^(i+1)
double hdot(const struct holder *h, double x) {
  double s = 0, p = 1;
  for (int i = 0; i < h->n; ++i) {
    p *= x;
    s += h->buf[i] * p;
  }
  return s;
}

//--- main.c
#include "h.h"
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
// x (b0 x + b1 x^2 + b2 x^3)
double f(double x) { return hdot(get_holder(), x) * x; }
static double df(const double *b, double x) {
  return 2 * b[0] * x + 3 * b[1] * x * x + 4 * b[2] * x * x * x;
}
__attribute__((noinline)) static void setup(struct holder *h, double c) {
  for (int i = 0; i < h->n; ++i)
    h->buf[i] = c * (i - 1);
}
static int check(const char *name, const double *b) {
  int bad = 0;
  for (double x = -0.8; x < 1.5; x += 0.6) {
    double g = __enzyme_autodiff((void *)f, x);
    double t = __enzyme_fwddiff((void *)f, x, 1.0);
    double fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
    if (fabs(g - fd) > 1e-6 * (1 + fabs(fd)) || fabs(t - g) > 1e-12 ||
        fabs(g - df(b, x)) > 1e-12 * (1 + fabs(g))) {
      printf("%s FAIL at %g: reverse %.12g forward %.12g differences %.12g "
             "exact %.12g\n",
             name, x, g, t, fd, df(b, x));
      bad = 1;
    }
  }
  puts(bad ? "failed" : "ok");
  return bad;
}
int main(void) {
  struct holder *h = get_holder();
  for (int i = 0; i < h->n; ++i)
    h->buf[i] = 1.0 / (i + 1);
  printf("main ");
  check("main", (double[]){1.0, 0.5, 1.0 / 3});
  setup(get_holder(), 2.5);
  printf("helper ");
  check("helper", (double[]){-2.5, 0, 2.5});
  return 0;
}

//--- alias.c
#include "h.h"
double __enzyme_autodiff(void *, ...);
static double out[3];
double g(double x) {
  out[0] = out[1] = out[2] = x * x;
  return hdot(get_holder(), x);
}
int main(void) {
  get_holder()->buf = out;
  return __enzyme_autodiff((void *)g, 0.5) > 0 ? 0 : 1;
}
