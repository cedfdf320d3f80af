// Global variables of C++ programs in both modes: a namespace-scope
// global, a static data member written and read back by member functions,
// an inline variable (one definition in every file), and a static local;
// the shadows hold tangents after a forward call, adjoints after a reverse
// one;
// the adjoint of a parameter kept in a static member is read from the
// shadow named with Enzyme's attribute. Derivatives against analytic
// values, central differences, and each other.
#include "check.h"

extern "C" {
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
}
extern int enzyme_const;

namespace model {
double energy; // written by step, read by observe
int steps;
} // namespace model

struct Integrator {
  static double last; // the last value stepped
  static double d_rate;
  [[enzyme::shadow(d_rate)]] static double rate;
  static void step(double x) {
    last = rate * x * x;
    model::energy = last + x;
    ++model::steps;
  }
  static double observe() { return model::energy * last; }
};
double Integrator::last;
double Integrator::d_rate;
double Integrator::rate = 1.5;

inline double gain = 2.0;

// F(x) = (r x^2 + x) r x^2 * gain + cube(x)
static double cube(double x) {
  static double square; // written and read back within each call
  square = x * x;
  return square * x;
}
static double F(double x) {
  Integrator::step(x);
  double o = Integrator::observe() * gain;
  return o + cube(x);
}
static double analytic(double x) {
  double r = Integrator::rate;
  // d/dx (r^2 x^4 + r x^3) gain + 3 x^2
  return (4 * r * r * x * x * x + 3 * r * x * x) * gain + 3 * x * x;
}

static double central(double x) {
  double e = 1e-6;
  double up = F(x + e), down = F(x - e);
  return (up - down) / (2 * e);
}

int main() {
  for (double x = 0.5; x <= 2.0; x += 0.25) {
    int before = model::steps;
    Integrator::d_rate = 0;
    double d = __enzyme_autodiff((void *)F, x);
    CHECK_TRUE(model::steps == before + 1);
    CHECK_CLOSE(d, analytic(x), 1e-13);
    double r = Integrator::rate;
    // dF/dr = (2 r x^4 + x^3) gain
    CHECK_CLOSE(Integrator::d_rate, (2 * r * x * x * x * x + x * x * x) * gain,
                1e-13);
    // (Forward mode reads the tangent of rate from its shadow: zero.)
    Integrator::d_rate = 0;
    double t = __enzyme_fwddiff((void *)F, x, 1.0);
    CHECK_CLOSE(t, d, 1e-13);
    CHECK_CLOSE(d, central(x), 1e-6);
  }
  return check_finish();
}
