// A class template's specialization copied as bytes from a parameter of
// its type (acdemiralp/ode's PID controller, `Controller<double> const&`,
// copied into the adaptive iterator that holds it). Clang names the IR type
// of `Gain<double>` after the template alone (`struct.Gain`, and
// `struct.Gain.0` for `Gain<float>`), so the parameter's C++ type did not
// say which IR type holds its fields, and from -O1, where the holder's
// constructor (not inlined) copies the parameter's doubles and arrays
// around its std::function with memcpy, the gradient was refused ("a
// memory copy whose contents cannot be typed"). The frontend now records
// each specialization's layout by the name the demangler prints. The
// holder is copied again mid-run, when the kept errors have derivatives.
// Checked against central differences and forward mode, and a second
// specialization (float) is used beside it so that the names collide.
#include "check.h"

#include <array>
#include <cmath>
#include <functional>

extern int enzyme_dup, enzyme_const;
extern "C" {
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

template <class Real> struct Gain {
  Real update(Real error) {
    history[2] = history[1];
    history[1] = history[0];
    history[0] = error;
    Real raw = weights[0] * history[0] + weights[1] * history[1] +
               weights[2] * history[2] + bias;
    return clip(raw);
  }
  Real bias = Real(0.125);
  std::function<Real(Real)> clip = [](Real v) { return std::tanh(v); };
  std::array<Real, 3> weights = {Real(0.9), Real(-0.35), Real(0.2)};
  std::array<Real, 3> history = {Real(0.3), Real(-0.1), Real(0.05)};
};

template <class Real> struct Integrator {
  __attribute__((noinline)) explicit Integrator(Real step,
                                                const Gain<Real> &g)
      : step(step), gain(g) {}
  void advance(Real &y) {
    step *= 1 + Real(0.1) * gain.update(y - Real(0.5));
    y += step * std::cos(y);
  }
  Real step;
  Gain<Real> gain;
};

// (The float specialization is compiled too: its IR type is the other
// `struct.Gain`.)
__attribute__((noinline)) float run_float(float y) {
  Integrator<float> it(0.1f, Gain<float>());
  it.advance(y);
  return y;
}

static double run(const double *y0, int n) {
  Gain<double> g;
  g.bias = 0.25 * *y0; // (the copied fields have derivatives)
  Integrator<double> it(0.1, g);
  double y = *y0;
  for (int i = 0; i < n; ++i)
    it.advance(y);
  Integrator<double> again = it;
  for (int i = 0; i < n; ++i)
    again.advance(y);
  return y + again.step;
}

int main() {
  const int n = 3;
  CHECK_TRUE(std::isfinite(run_float(0.4f)));
  for (double y0 : {0.6, -1.1, 1.9}) {
    double dy = 0;
    __enzyme_autodiff((void *)run, enzyme_dup, &y0, &dy, enzyme_const, n);
    double h = 1e-6, up = y0 + h, down = y0 - h;
    double fd = (run(&up, n) - run(&down, n)) / (2 * h);
    CHECK_CLOSE(dy, fd, 1e-6);
    double ty = 1;
    double t = __enzyme_fwddiff((void *)run, enzyme_dup, &y0, &ty,
                                enzyme_const, n);
    CHECK_CLOSE(t, dy, 1e-12);
    CHECK_TRUE(std::fabs(dy) > 1e-3);
  }
  return check_finish();
}
