// Calls through function pointers and virtual calls that may throw
// (invokes: a local object with a destructor is in scope) in reverse mode:
// each possible target is invoked with the same unwind destination. The
// gradient where nothing throws; the exception and the destructors where
// the callee throws. Closed forms and forward mode.
#include "rev_check.h"

#include <stdexcept>

static int guards = 0;
struct Guard {
  ~Guard() { ++guards; }
};
struct Model {
  virtual double f(double x) const = 0;
  virtual ~Model() {}
};
struct Sq : Model {
  double f(double x) const override {
    if (x > 10)
      throw std::runtime_error("too big");
    return 3 * x * x;
  }
};
struct Cube : Model {
  double f(double x) const override { return x * x * x; }
};
static double eval(const Model *m, double x) {
  Guard g;
  return m->f(x) + m->f(2 * x);
}
static double twice(double x) {
  if (x < -10)
    throw std::domain_error("too small");
  return 2 * x * x;
}
static double half(double x) { return 0.5 * x; }
static double via_ptr(double (*fp)(double), double x) {
  Guard g;
  return fp(x) * x;
}

int main() {
  Sq sq;
  Cube cube;
  double x = 1.3;
  CHECK_CLOSE(__enzyme_autodiff((void *)eval, enzyme_const, &sq, x),
              6 * x + 24 * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)eval, enzyme_const, &cube, x),
              3 * x * x + 24 * x * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)eval, enzyme_const, &cube, x, 1.0),
              3 * x * x + 24 * x * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)via_ptr, enzyme_const, twice, x),
              6 * x * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)via_ptr, enzyme_const, half, x), x,
              REV_TOL_EXACT);
  int before = guards, caught = 0;
  try {
    __enzyme_autodiff((void *)eval, enzyme_const, &sq, 6.0);
  } catch (const std::runtime_error &) {
    caught = 1;
  }
  CHECK_TRUE(caught && guards > before);
  caught = 0;
  try {
    __enzyme_autodiff((void *)via_ptr, enzyme_const, twice, -11.0);
  } catch (const std::domain_error &) {
    caught = 1;
  }
  CHECK_TRUE(caught);
  return check_finish();
}
