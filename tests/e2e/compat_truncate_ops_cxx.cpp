// __enzyme_truncate_op_func declared as Enzyme's C++ programs declare it
// (variadic, without extern "C": a mangled name), on a function template
// that calls a method: the truncated copy against the computation written
// in float, its gradient against the analytic one and forward mode.
#include "check.h"

#include <cmath>

typedef double (*fty)(double, double);
extern fty __enzyme_truncate_op_func(...);
extern double __enzyme_autodiff(...);
extern double __enzyme_fwddiff(...);
extern int enzyme_out, enzyme_const;

struct Scale {
  double k;
  __attribute__((noinline)) double apply(double v) const {
    return k * v + std::cos(v);
  }
};

template <typename T> T model(T a, T b) {
  Scale s{T(1.5)};
  return s.apply(a * b) / (T(1) + a * a);
}
static float modelf(float a, float b) {
  float v = a * b;
  float num = 1.5f * v + (float)std::cos(v);
  return num / (1.0f + a * a);
}

int main() {
  const double a = 0.8, b = 1.7;
  fty t = __enzyme_truncate_op_func(model<double>, 64, 32);
  double tr = t(a, b), full = model(a, b);
  CHECK_CLOSE(tr, (double)modelf((float)a, (float)b), 4e-7);
  CHECK_TRUE(tr != full && (double)(float)tr == tr);
  // d/da of (1.5 ab + cos(ab)) / (1 + a^2)
  double v = a * b, num = 1.5 * v + std::cos(v), den = 1 + a * a;
  double want = (1.5 * b - std::sin(v) * b) / den - num * 2 * a / (den * den);
  double ga = __enzyme_autodiff(
      (void *)__enzyme_truncate_op_func(model<double>, 64, 32), enzyme_out, a,
      enzyme_const, b);
  CHECK_CLOSE(ga, want, 2e-6);
  double fa = __enzyme_fwddiff(
      (void *)__enzyme_truncate_op_func(model<double>, 64, 32), a, 1.0,
      enzyme_const, b);
  CHECK_CLOSE(fa, ga, 2e-6);
  CHECK_TRUE((double)(float)fa == fa);
  return check_finish();
}
