// C++ objects that keep pointers to constant data (enzyme_const
// arguments) beside active data, at every level (issue 33, item 5):
//   - std::map<std::string, double>::at on an enzyme_const map (the node
//     found through the constant map had a shadow derived from a null
//     one: a crash at -O0);
//   - a lambda capturing a constant pointer `[p]`, held with the state by
//     a stepper object (as Boost.Odeint's stages hold the system and the
//     state: a crash at -O0).
// Checked against closed forms, central differences and forward mode.
#include "check.h"

#include <cmath>
#include <map>
#include <string>

extern int enzyme_dup, enzyme_const, enzyme_out;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);

using Coefficients = std::map<std::string, double>;

static double spring(double x, const Coefficients *m) {
  return m->at("stiffness") * x * x + m->at("load") * std::sin(x);
}

enum { N = 3 };

// One explicit Euler step of dx/dt = rhs(x), held as Odeint's stages hold
// the system and the state.
template <typename System> struct Stepper {
  System &sys;
  double *state;
  double dt;
  void step() {
    double d[N];
    sys(state, d);
    for (int i = 0; i < N; ++i)
      state[i] += dt * d[i];
  }
};

static double integrate(const double *p, double *x) {
  auto rhs = [p](const double *s, double *d) {
    for (int i = 0; i < N; ++i)
      d[i] = -p[i] * s[i] + p[N + i] * s[(i + 1) % N];
  };
  Stepper<decltype(rhs)> st{rhs, x, 0.1};
  for (int k = 0; k < 4; ++k)
    st.step();
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += x[i] * x[i];
  return r;
}

static double pc[2 * N];

static double integrate_copy(const double *x0) {
  double x[N] = {x0[0], x0[1], x0[2]};
  return integrate(pc, x);
}

// The Euler step is x <- A x with A = I + dt M: after four steps x4 = A^4 x0
// and the gradient of |x4|^2 is 2 (A^T)^4 x4.
static void integrate_grad(const double *x0, double *g) {
  double A[N][N] = {};
  for (int i = 0; i < N; ++i) {
    A[i][i] += 1 - 0.1 * pc[i];
    A[i][(i + 1) % N] += 0.1 * pc[N + i];
  }
  double x[N] = {x0[0], x0[1], x0[2]};
  for (int k = 0; k < 4; ++k) {
    double y[N] = {};
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        y[i] += A[i][j] * x[j];
    for (int i = 0; i < N; ++i)
      x[i] = y[i];
  }
  for (int i = 0; i < N; ++i)
    g[i] = 2 * x[i];
  for (int k = 0; k < 4; ++k) {
    double y[N] = {};
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        y[j] += A[i][j] * g[i];
    for (int i = 0; i < N; ++i)
      g[i] = y[i];
  }
}

int main() {
  Coefficients m{{"stiffness", 1.7}, {"load", 0.3}};
  for (double x : {0.4, -1.2}) {
    double d =
        __enzyme_autodiff<double>((void *)spring, enzyme_out, x, enzyme_const,
                                  &m);
    CHECK_CLOSE(d, 2 * 1.7 * x + 0.3 * std::cos(x), 1e-12);
    double h = 1e-6;
    CHECK_CLOSE(d, (spring(x + h, &m) - spring(x - h, &m)) / (2 * h), 1e-7);
    double t = __enzyme_fwddiff<double>((void *)spring, x, 1.0, enzyme_const,
                                        &m);
    CHECK_CLOSE(t, d, 1e-12);
  }

  for (int i = 0; i < 2 * N; ++i)
    pc[i] = 0.5 + 0.25 * i;
  double x0[N] = {0.3, -0.7, 1.1}, x[N], dx[N] = {}, want[N];
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  __enzyme_autodiff<double>((void *)integrate, enzyme_const, pc, enzyme_dup, x,
                            dx);
  integrate_grad(x0, want);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i], want[i], 1e-12);
    double h = 1e-6, xp[N], xm[N];
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x0[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE(dx[i], (integrate_copy(xp) - integrate_copy(xm)) / (2 * h),
                1e-7);
    double xs[N], t[N] = {};
    for (int j = 0; j < N; ++j)
      xs[j] = x0[j];
    t[i] = 1;
    double ti = __enzyme_fwddiff<double>((void *)integrate, enzyme_const, pc,
                                         enzyme_dup, xs, t);
    CHECK_CLOSE(ti, dx[i], 1e-12);
  }
  return check_finish();
}
