// Forward mode through indirect calls (adcc++): function pointers chosen at
// run time from a table, a pointer passed as an argument, and virtual calls
// on a duplicated object and on an enzyme_const object.
#include "fwd_check.h"

#include <cmath>

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
  case 0: // (x^2)^2
    return 4 * x * x * x + std::exp(x);
  case 1: // (x^3)^3
    return 9 * std::pow(x, 8) + std::exp(x);
  default: // sin(3 sin(3x))
    return std::cos(3 * std::sin(3 * x)) * 9 * std::cos(3 * x) + std::exp(x);
  }
}
static int g_k;
static double via_table_line(double t) { return via_table(t, g_k); }

struct Model {
  double scale;
  virtual double eval(double x) const = 0;
  virtual ~Model() {}
};
struct Quadratic : Model {
  double eval(double x) const override { return scale * x * x; }
};
struct Logistic : Model {
  double eval(double x) const override {
    return scale / (1 + std::exp(-x));
  }
};
static double run_model(const Model *m, double x) {
  return m->eval(x) + m->eval(2 * x);
}

int main() {
  const double xs[] = {-0.8, 0.3, 1.1};
  for (double x : xs)
    for (int k = 0; k < 3; ++k) {
      g_k = k;
      CHECK_TANGENT(__enzyme_fwddiff((void *)via_table, x, 1.0, k),
                    via_table_d(x, k), via_table_line, x);
    }
  Quadratic q, dq;
  Logistic l, dl;
  q.scale = 1.5;
  dq.scale = 0;
  l.scale = 2.0;
  dl.scale = 0;
  for (double x : xs) {
    // q: 1.5 x^2 + 1.5 (2x)^2 -> 15 x
    CHECK_CLOSE(__enzyme_fwddiff((void *)run_model, &q, &dq, x, 1.0), 15 * x,
                FWD_TOL_EXACT);
    double s1 = 1 / (1 + std::exp(-x)), s2 = 1 / (1 + std::exp(-2 * x));
    double want = 2.0 * (s1 * (1 - s1) + 2 * s2 * (1 - s2));
    CHECK_CLOSE(__enzyme_fwddiff((void *)run_model, &l, &dl, x, 1.0), want,
                FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)run_model, enzyme_const, &l, x, 1.0),
                want, FWD_TOL_EXACT);
  }
  // tangent of a data member through the shadow object: d/dscale
  dq.scale = 1;
  CHECK_CLOSE(__enzyme_fwddiff((void *)run_model, &q, &dq, 0.5, 0.0),
              0.25 + 1.0, FWD_TOL_EXACT);
  return check_finish();
}
