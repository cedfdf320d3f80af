// Two requests given one shadow struct the caller zeroes (`S ds = {}`: a
// null shadow beside the primal's pointer to constant data), in C++ with
// the entry points declared without extern "C" (mangled names, as in CUDA
// code): the second request counted as a call that may fill the shadow,
// so neither request guarded its null shadow pointer, and the derivative
// read and added through it: a crash at -O0 (segmentation fault), and in
// device code at -O2 a thread's branch deleted by the optimizer (grid
// emulation: tests/gpu/gpu_null_shadows.cu, 'branches'). Each request in
// its own branch, reverse and forward mode, against the analytic
// derivative and central differences.
#include "check.h"

#include <initializer_list>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_out;

struct S {
  double *p; // constant data: its shadow stays null
  double k;
};

// p[0] x^2 k + p[1] x
static double f(S *s, double x) { return s->p[0] * x * x * s->k + s->p[1] * x; }

__attribute__((noinline)) static double derivative(double *buf, double x,
                                                   int which) {
  S s = {buf, 1.5}, ds = {};
  double d = -1;
  if (which == 0)
    d = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, x);
  if (which == 1)
    d = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, x, 1.0);
  if (which == 2)
    d = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, x);
  return d;
}

int main() {
  double buf[2] = {2.0, 0.5};
  for (double x : {0.7, -1.3}) {
    S s = {buf, 1.5};
    const double h = 1e-6;
    double central = (f(&s, x + h) - f(&s, x - h)) / (2 * h);
    double want = 2 * buf[0] * x * 1.5 + buf[1];
    for (int which = 0; which < 3; ++which) {
      double d = derivative(buf, x, which);
      CHECK_CLOSE(d, want, 1e-12);
      CHECK_CLOSE(d, central, 1e-6);
    }
  }
  return check_finish();
}
