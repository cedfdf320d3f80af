// Boost.Odeint over std::vector<double> states, differentiated with respect
// to the initial state and the parameters of the right-hand side, in both
// modes: runge_kutta4 with integrate_const (a functor holding a pointer to
// its parameters, a lambda capturing them by reference and one capturing
// them by value, the state and the parameters in separate duplicated
// arrays, and the parameters enzyme_const: the lambda `[p]` holds a
// constant pointer beside the state), and controlled runge_kutta_dopri5 /
// runge_kutta_cash_karp54 steppers with integrate_adaptive. Each gradient is checked against
// central differences and, along a random direction, forward mode.
// (At -O0 the reverse sweep of a closure handed on by value crashed
// inside odeint's stages: adcore/lib/reverse/ReverseCalls.cpp.) Without
// Boost (libboost-dev) the test is skipped.
#include "rev_check.h"

#if __has_include(<boost/numeric/odeint.hpp>)
#include <boost/numeric/odeint.hpp>

#include <vector>

namespace ode = boost::numeric::odeint;
typedef std::vector<double> state;

// A damped oscillator: in[0..1] the initial state, in[2..3] stiffness and
// damping.
struct oscillator {
  const double *p;
  void operator()(const state &x, state &dxdt, double) const {
    dxdt[0] = x[1];
    dxdt[1] = -p[0] * x[0] - p[1] * x[1];
  }
};

static double damped(const double *in) {
  state x(in, in + 2);
  oscillator sys{in + 2};
  ode::runge_kutta4<state> rk;
  ode::integrate_const(rk, sys, x, 0.0, 1.0, 0.1);
  return x[0] * x[0] + 0.5 * x[1];
}

// Lotka-Volterra: in[0..1] the populations, in[2..5] the rates.
static double predator_prey(const double *in) {
  state x(in, in + 2);
  double a = 1 + in[2], b = in[3], c = 1 + in[4], d = in[5];
  auto sys = [&](const state &x, state &dxdt, double) {
    dxdt[0] = a * x[0] - b * x[0] * x[1];
    dxdt[1] = -c * x[1] + d * x[0] * x[1];
  };
  ode::integrate_const(ode::runge_kutta4<state>(), sys, x, 0.0, 1.0, 0.1);
  return x[0] + x[1] * x[1];
}

// The same oscillator as a lambda with copies of its parameters, driven
// by a time-dependent force, with an observer summing the trajectory.
static double forced(const double *in) {
  state x(in, in + 2);
  double k = 2 + in[2], w = in[3];
  auto sys = [=](const state &x, state &dxdt, double t) {
    dxdt[0] = x[1];
    dxdt[1] = -k * x[0] + std::sin(w * t);
  };
  double sum = 0;
  ode::integrate_const(ode::runge_kutta4<state>(), sys, x, 0.0, 1.0, 0.1,
                       [&](const state &s, double) { sum += s[0] * s[0]; });
  return sum + x[1];
}

static double dopri5(const double *in) {
  state x(in, in + 2);
  oscillator sys{in + 2};
  auto stepper = ode::make_controlled(1e-10, 1e-10,
                                      ode::runge_kutta_dopri5<state>());
  ode::integrate_adaptive(stepper, sys, x, 0.0, 1.0, 0.1);
  return x[0] * x[0] + 0.5 * x[1];
}

static double cash_karp(const double *in) {
  state x(in, in + 2);
  double a = 1 + in[2], b = in[3];
  auto sys = [&](const state &x, state &dxdt, double) {
    dxdt[0] = a * x[0] - b * x[0] * x[1];
    dxdt[1] = -x[1] + b * x[0] * x[1];
  };
  auto stepper = ode::make_controlled(1e-10, 1e-10,
                                      ode::runge_kutta_cash_karp54<state>());
  ode::integrate_adaptive(stepper, sys, x, 0.0, 1.0, 0.1);
  return x[0] + x[1] * x[1];
}

// The state and the parameters in separate duplicated arrays.
static double separate(const double *x0, const double *p) {
  state x(x0, x0 + 2);
  auto sys = [p](const state &x, state &dxdt, double) {
    dxdt[0] = x[1];
    dxdt[1] = -p[0] * x[0] - p[1] * x[1];
  };
  ode::integrate_const(ode::runge_kutta4<state>(), sys, x, 0.0, 1.0, 0.1);
  return x[0] * x[0] + 0.5 * x[1];
}
static double separate_joined(const double *in) {
  return separate(in, in + 2);
}

int main() {
  CHECK_GRAD_AND_DOT(damped, 4, 1.0);
  CHECK_GRAD_AND_DOT(predator_prey, 6, 0.5);
  CHECK_GRAD_AND_DOT(forced, 4, 1.0);
  CHECK_GRAD_AND_DOT(dopri5, 4, 1.0);
  CHECK_GRAD_AND_DOT(cash_karp, 4, 0.5);

  double in[4] = {1.0, 0.3, 2.0, 0.4}, g[4] = {0}, v[4];
  __enzyme_autodiff((void *)separate, enzyme_dup, in, g, enzyme_dup, in + 2,
                    g + 2);
  CHECK_GRAD(separate_joined, in, 4, g, NULL);
  double dir = rev_dir(g, v, 4);
  CHECK_CLOSE(dir,
              __enzyme_fwddiff((void *)separate, enzyme_dup, in, v,
                               enzyme_dup, in + 2, v + 2),
              REV_TOL_DOT);
  printf("separate: d/dx0 = %.12f\n", g[0]);

  // The parameters constant: the lambda `[p]` holds a pointer to constant
  // data beside the state in the stepper's stages, whose shadow there is
  // null (a crash at -O0 before issue 33's guards). The gradient in the
  // state is the same.
  double gc[2] = {0}, vc[2] = {v[0], v[1]};
  __enzyme_autodiff((void *)separate, enzyme_dup, in, gc, enzyme_const,
                    in + 2);
  for (int i = 0; i < 2; ++i)
    CHECK_CLOSE(gc[i], g[i], REV_TOL_EXACT);
  CHECK_CLOSE(gc[0] * vc[0] + gc[1] * vc[1],
              __enzyme_fwddiff((void *)separate, enzyme_dup, in, vc,
                               enzyme_const, in + 2),
              REV_TOL_DOT);
  return check_finish();
}
#else
int main() {
  printf("<boost/numeric/odeint.hpp> not found (libboost-dev): not run\n");
  return 77;
}
#endif
