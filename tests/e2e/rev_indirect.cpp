// Reverse mode through indirect calls (adcc++): function pointers chosen at
// run time from a table, a callback passed as an argument (with pointer
// arguments of its own), virtual calls on an enzyme_const object and in a
// loop over a polymorphic array.  Closed forms, central differences and
// forward mode.  (Pointers loaded from duplicated memory -- a struct field,
// a duplicated object's vtable -- and pointers to member functions:
// rev_indirect_dup.cpp; std::function: rev_std_function.cpp.)
#include "rev_check.h"

#include <cmath>
#include <functional>

typedef double (*unary)(double);
static double sq(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double wave(double x) { return std::sin(3 * x); }

static double apply_twice(unary f, double x) { return f(f(x)) + std::exp(x); }
static double via_table(double x, int k) {
  static const unary table[3] = {sq, cube, wave};
  return apply_twice(table[k], x);
}
static double via_table_d(double x, int k) {
  switch (k) {
  case 0:
    return 4 * x * x * x + std::exp(x);
  case 1:
    return 9 * std::pow(x, 8) + std::exp(x);
  default:
    return std::cos(3 * std::sin(3 * x)) * 9 * std::cos(3 * x) + std::exp(x);
  }
}
static int g_k;
static double via_table_line(double t) { return via_table(t, g_k); }

// a callback over an array: pointer arguments through the pointer
typedef double (*reducer)(const double *, int);
static double rsumsq(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i];
  return s;
}
static double rprod(const double *p, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s *= p[i];
  return s;
}
static double reduce_with(reducer r, const double *p, int n) {
  return std::log(1 + r(p, n));
}
static double via_callback(const double *p, int which) {
  return reduce_with(which ? rprod : rsumsq, p, 3);
}
static int g_which;
static double via_callback_arr(const double *p) {
  return via_callback(p, g_which);
}

// virtual calls
struct Model {
  double scale;
  virtual double eval(double x) const = 0;
  virtual ~Model() {}
};
struct Quadratic : Model {
  double eval(double x) const override { return scale * x * x; }
};
struct Logistic : Model {
  double eval(double x) const override { return scale / (1 + std::exp(-x)); }
};
static double run_model(const Model *m, double x) {
  return m->eval(x) + m->eval(2 * x);
}
static double run_many(const Model *const *ms, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += ms[i]->eval(x * (i + 1));
  return s;
}

int main() {
  for (int k = 0; k < 3; ++k) {
    g_k = k;
    double xs[3] = {0.4, 0.9, 1.2};
    for (double x : xs) {
      double g = __enzyme_autodiff((void *)via_table, x, k);
      CHECK_TANGENT(g, via_table_d(x, k), via_table_line, x);
      CHECK_CLOSE(g, __enzyme_fwddiff((void *)via_table, x, 1.0, k),
                  REV_TOL_DOT);
    }
  }
  for (int w = 0; w < 2; ++w) {
    g_which = w;
    double p[3] = {0.5, 1.2, 2.0}, dp[3] = {0}, v[3];
    __enzyme_autodiff((void *)via_callback, p, dp, w);
    CHECK_GRAD(via_callback_arr, p, 3, dp, nullptr);
    rev_dir(dp, v, 3);
    CHECK_DOT(dp, v, 3, __enzyme_fwddiff((void *)via_callback, p, v, w));
  }
  {
    Quadratic q;
    q.scale = 1.5;
    Logistic l;
    l.scale = 2.0;
    double x = 0.6;
    // (a duplicated object: rev_indirect_dup.cpp)
    // const object
    double dxl = __enzyme_autodiff((void *)run_model, enzyme_const, &l, x);
    double s1 = 1 / (1 + std::exp(-x)), s2 = 1 / (1 + std::exp(-2 * x));
    CHECK_CLOSE(dxl, 2 * (s1 * (1 - s1) + 2 * s2 * (1 - s2)), REV_TOL_EXACT);
    CHECK_CLOSE(dxl,
                __enzyme_fwddiff((void *)run_model, enzyme_const, &l, x, 1.0),
                REV_TOL_DOT);
    // a polymorphic array
    const Model *ms[3] = {&q, &l, &q};
    double dxm = __enzyme_autodiff((void *)run_many, enzyme_const, ms, 3, x);
    double s3 = 1 / (1 + std::exp(-2 * x));
    CHECK_CLOSE(dxm, 1.5 * 2 * x + 2 * 2 * s3 * (1 - s3) + 1.5 * 2 * 9 * x,
                REV_TOL_EXACT);
  }
  return check_finish();
}
