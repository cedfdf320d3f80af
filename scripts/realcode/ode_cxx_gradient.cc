// Derivatives through acdemiralp/ode (github.com/acdemiralp/ode: header-only
// C++20 ODE solvers, unchanged): Butcher tableaus as constexpr std::arrays
// walked by a compile-time loop of generic lambdas (constexpr_for), the
// right-hand side a lambda held in a std::function inside the problem
// struct, the state an Eigen::Vector3d (zero-initialized, as the library's
// own tests build it), and for the adaptive iterator a PI step-size
// controller (std::pow, std::abs, std::min/max clamps, a rejected step
// retried by recursion). The system is Lorenz's, its parameters captured
// by the lambda.
//
// The objective is w . y(T) after a number of steps. Checked: its gradient
// with respect to the initial state and the parameters by reverse mode
// against central differences and forward mode (one direction at a time),
// for forward Euler and RK4 with fixed steps, and Dormand-Prince 5 with
// adaptive steps under the library's three controllers (I, PI, and PID
// with -DODE_PID; step
// sizes that depend on the state: their derivative is part of the
// gradient, as central differences see it; rejected steps retried).
// Run by ode_cxx.sh.
#define EIGEN_INITIALIZE_MATRICES_BY_ZERO
#include <Eigen/Core>
#include <ode/ode.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern "C" {
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static int failures = 0, checks = 0;

static void check(const std::string &what, int i, double got, double want,
                  double tol) {
  bool ok = std::fabs(got - want) <= tol * (1 + std::fabs(want));
  ++checks;
  if (!ok) {
    std::printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what.c_str(), i,
                got, want);
    ++failures;
  }
}

struct Params {
  double sigma, rho, beta;
};

using vec = Eigen::Vector3d;
using problem_type = ode::initial_value_problem<double, vec>;

static problem_type lorenz(const double *y0, const Params *p) {
  return problem_type{0.0, vec(y0[0], y0[1], y0[2]),
                      [p](const double, const vec &y) {
                        return vec(p->sigma * (y[1] - y[0]),
                                   y[0] * (p->rho - y[2]) - y[1],
                                   y[0] * y[1] - p->beta * y[2]);
                      }};
}

static double weigh(const vec &y) { return 0.3 * y[0] - 0.5 * y[1] + 0.7 * y[2]; }

template <typename tableau>
static double fixed(const double *y0, const Params *p, int steps) {
  using method = ode::explicit_method<tableau>;
  auto it = ode::fixed_step_iterator<method, problem_type>(lorenz(y0, p), 0.004);
  for (int i = 0; i < steps; ++i)
    ++it;
  return weigh(it->value);
}

using dp5 = ode::explicit_method<ode::dormand_prince_5_tableau<double>>;

template <typename controller>
static double adaptive(const double *y0, const Params *p, int steps) {
  auto it = ode::adaptive_step_iterator<dp5, problem_type, controller>(
      lorenz(y0, p), 0.05);
  for (int i = 0; i < steps; ++i)
    ++it;
  return weigh(it->value);
}

typedef double (*objective)(const double *, const Params *, int);

static void try_one(const char *name, objective f, int steps) {
  double y0[3] = {1.0, 1.5, 2.0};
  Params p = {10.0, 28.0, 8.0 / 3.0};
  double dy0[3] = {0, 0, 0};
  Params dp = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, y0, dy0, enzyme_dup, &p, &dp,
                    enzyme_const, steps);
  double g[6] = {dy0[0], dy0[1], dy0[2], dp.sigma, dp.rho, dp.beta};
  for (int i = 0; i < 6; ++i) {
    double *v = i < 3 ? &y0[i] : &(&p.sigma)[i - 3];
    double keep = *v, h = 1e-6 * (1 + std::fabs(keep));
    *v = keep + h;
    double up = f(y0, &p, steps);
    *v = keep - h;
    double down = f(y0, &p, steps);
    *v = keep;
    check(std::string(name) + ": gradient vs differences", i, g[i],
          (up - down) / (2 * h), 1e-5);
    double ty0[3] = {0, 0, 0};
    Params tp = {0, 0, 0};
    (i < 3 ? ty0[i] : (&tp.sigma)[i - 3]) = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, y0, ty0, enzyme_dup,
                                &p, &tp, enzyme_const, steps);
    check(std::string(name) + ": forward vs reverse", i, t, g[i], 1e-9);
  }
}

int main() {
  try_one("forward Euler", fixed<ode::forward_euler_tableau<double>>, 100);
  try_one("RK4", fixed<ode::runge_kutta_4_tableau<double>>, 100);
  // (20 steps from h = 0.05: the PI controller rejects none, the I
  // controller 2, the PID controller 12, each retried by recursion.)
  try_one("Dormand-Prince 5, PI controller",
          adaptive<ode::proportional_integral_controller<dp5, problem_type>>,
          20);
  try_one("Dormand-Prince 5, I controller",
          adaptive<ode::integral_controller<dp5, problem_type>>, 20);
#ifdef ODE_PID
  // (A build of its own: refused at -O1 and up until 2026-12-06, its
  // controller a class template copied as bytes: docs/testing.md.)
  try_one("Dormand-Prince 5, PID controller",
          adaptive<ode::proportional_integral_derivative_controller<
              dp5, problem_type>>,
          20);
#endif
  std::printf("ode_cxx: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
