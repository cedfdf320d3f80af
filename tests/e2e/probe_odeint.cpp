// Boost.Odeint as its documentation writes it: the Lorenz system as a
// functor over a std::array state, integrate_adaptive with a controlled
// runge_kutta_dopri5 made by make_controlled and an observer that records
// states and times in std::vectors, and integrate_times with a dense-output
// dopri5 (make_dense_output) and a lambda observer. The gradients with
// respect to the initial state and the system's parameters are checked
// against central differences (to 1e-4: the adaptive step control makes
// kinks) and, along a direction, forward mode. No bug found when written
// (2026-12-06). Without Boost (libboost-dev) the test is skipped.
#include "rev_check.h"

#if __has_include(<boost/numeric/odeint.hpp>)
#include <boost/numeric/odeint.hpp>

#include <array>
#include <vector>

namespace ode = boost::numeric::odeint;
typedef std::array<double, 3> state_type;

struct lorenz {
  double sigma, r, b;
  void operator()(const state_type &x, state_type &dxdt, double) const {
    dxdt[0] = sigma * (x[1] - x[0]);
    dxdt[1] = r * x[0] - x[1] - x[0] * x[2];
    dxdt[2] = -b * x[2] + x[0] * x[1];
  }
};

struct push_back_state_and_time {
  std::vector<state_type> &states;
  std::vector<double> &times;
  void operator()(const state_type &x, double t) {
    states.push_back(x);
    times.push_back(t);
  }
};

// p[0..3): the initial state; p[3..6): sigma, r, b.
static double adaptive(const double *p) {
  state_type x = {p[0], p[1], p[2]};
  lorenz sys{p[3], p[4], p[5]};
  std::vector<state_type> states;
  std::vector<double> times;
  typedef ode::runge_kutta_dopri5<state_type> stepper_type;
  ode::integrate_adaptive(ode::make_controlled(1e-8, 1e-8, stepper_type()),
                          sys, x, 0.0, 0.5, 0.01,
                          push_back_state_and_time{states, times});
  double s = 0;
  for (size_t i = 0; i < states.size(); ++i)
    s += 0.01 * states[i][0] + 0.001 * std::sin(states[i][2]) * times[i];
  return s + x[0] * x[1];
}

static double dense_times(const double *p) {
  state_type x = {p[0], p[1], p[2]};
  lorenz sys{p[3], p[4], p[5]};
  std::vector<double> ts = {0.0, 0.1, 0.2, 0.3};
  double acc = 0;
  ode::integrate_times(
      ode::make_dense_output(1e-8, 1e-8, ode::runge_kutta_dopri5<state_type>()),
      sys, x, ts.begin(), ts.end(), 0.01,
      [&](const state_type &y, double t) { acc += y[0] * t + y[2]; });
  return acc;
}

static void check(const char *name, double (*f)(const double *)) {
  double p[6] = {1.0, 1.2, 0.8, 10.0, 28.0, 8.0 / 3.0}, g[6] = {0}, v[6];
  __enzyme_autodiff((void *)f, enzyme_dup, p, g);
  CHECK_GRAD_TOL(f, p, 6, g, NULL, 1e-4);
  double along = rev_dir(g, v, 6);
  CHECK_CLOSE(along, __enzyme_fwddiff((void *)f, enzyme_dup, p, v), 1e-9);
  printf("%s: d/dx0 = %.10f\n", name, g[0]);
}

int main() {
  check("adaptive", adaptive);
  check("dense_times", dense_times);
  return check_finish();
}
#else
int main() {
  printf("<boost/numeric/odeint.hpp> not found (libboost-dev): not run\n");
  return 77;
}
#endif
