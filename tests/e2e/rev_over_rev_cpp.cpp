// Reverse over reverse through adcc's C++ API (issue 33, item 9): the
// gradient (adcc::gradient) of lambdas and functors that themselves call
// adcc::gradient. Checked against closed forms, adcc::hvp (forward over
// reverse) and central differences.
//  - the Hessian of the Rosenbrock function of a std::array, row by row
//    (the gradient of each partial derivative);
//  - a mixed second derivative through a capture: d/da of the slope of
//    a sin(x) x^2, where the inner lambda captures a;
//  - a functor with data (a spring chain) whose energy's gradient is the
//    force, and the gradient of the squared force norm.
#include "rev_check.h"

#include <adcc.hpp>

#include <array>
#include <cmath>
#include <cstdio>

using Vec3 = std::array<double, 3>;

static double rosenbrock(Vec3 x) {
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += 100 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) +
         (1 - x[i]) * (1 - x[i]);
  return s;
}

static void rosenbrock_hessian(const Vec3 &x, double H[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      H[i][j] = 0;
  for (int i = 0; i < 2; ++i) {
    H[i][i] += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
    H[i][i + 1] += -400 * x[i];
    H[i + 1][i] += -400 * x[i];
    H[i + 1][i + 1] += 200;
  }
}

// (The inner function goes through a lambda: a function of the outer one's
// type would share its request, which then depends on itself.)
template <int I> static double partial(Vec3 x) {
  auto [g] = adcc::gradient([](Vec3 y) { return rosenbrock(y); },
                            adcc::Active(x));
  return g[I];
}

template <int I> static void check_row(const Vec3 &x, double H[3][3]) {
  auto [row] = adcc::gradient(partial<I>, adcc::Active(x));
  // forward over reverse: H e_j, one column at a time
  for (int j = 0; j < 3; ++j) {
    Vec3 e{};
    e[j] = 1;
    auto [hv] = adcc::hvp(rosenbrock, adcc::Dual(x, e));
    CHECK_CLOSE(row[j], H[I][j], REV_TOL_EXACT);
    CHECK_CLOSE(row[j], hv[I], REV_TOL_EXACT);
    Vec3 xp = x, xm = x;
    double h = 1e-6;
    xp[j] += h;
    xm[j] -= h;
    CHECK_CLOSE(row[j], (partial<I>(xp) - partial<I>(xm)) / (2 * h),
                REV_TOL_FD);
  }
}

static void check_rosenbrock() {
  Vec3 x{0.3, -0.8, 1.2};
  double H[3][3];
  rosenbrock_hessian(x, H);
  check_row<0>(x, H);
  check_row<1>(x, H);
  check_row<2>(x, H);
  std::printf("rosenbrock: H00 = %.12f\n", H[0][0]);
}

// d/dx (a sin(x) x^2) at x = 0.8, as a function of a; its derivative in a
// by reverse mode over the inner gradient.
static double slope(double a) {
  auto f = [a](double x) { return a * std::sin(x) * x * x; };
  auto [g] = adcc::gradient(f, adcc::Active(0.8));
  return g;
}

static void check_capture() {
  double x = 0.8;
  auto [d] = adcc::gradient(slope, adcc::Active(1.7));
  CHECK_CLOSE(d, std::cos(x) * x * x + 2 * x * std::sin(x), REV_TOL_EXACT);
  CHECK_CLOSE(d, adcc::forward(slope, adcc::Dual(1.7, 1.0)), REV_TOL_EXACT);
}

// Springs between consecutive beads of a chain: a functor with data (held
// by value in the closures, not through a pointer to constant data, which
// reverse mode does not follow into a closure that also holds active
// values: docs/status.md).
struct Chain {
  double k[3] = {1.0, 2.5, 0.7};
  double operator()(double a, double b, double c, double d) const {
    double p[4] = {a, b, c, d}, e = 0;
    for (int i = 0; i < 3; ++i) {
      double s = p[i + 1] - p[i] - 1;
      e += 0.5 * k[i] * s * s * (1 + 0.1 * s);
    }
    return e;
  }
};

// |force|^2, the force being minus the gradient of the chain's energy
static double force2(double a, double b, double c, double d) {
  auto [fa, fb, fc, fd] =
      adcc::gradient(Chain{}, adcc::Active(a), adcc::Active(b),
                     adcc::Active(c), adcc::Active(d));
  return fa * fa + fb * fb + fc * fc + fd * fd;
}

static void check_chain() {
  double p[4] = {0.1, 1.3, 2.0, 3.4};
  auto [ga, gb, gc, gd] =
      adcc::gradient(force2, adcc::Active(p[0]), adcc::Active(p[1]),
                     adcc::Active(p[2]), adcc::Active(p[3]));
  double got[4] = {ga, gb, gc, gd};
  for (int i = 0; i < 4; ++i) {
    double q[4] = {p[0], p[1], p[2], p[3]}, h = 1e-6;
    q[i] += h;
    double up = force2(q[0], q[1], q[2], q[3]);
    q[i] -= 2 * h;
    double down = force2(q[0], q[1], q[2], q[3]);
    CHECK_CLOSE(got[i], (up - down) / (2 * h), REV_TOL_FD);
  }
  std::printf("chain: d|F|^2/dp0 = %.12f\n", ga);
}

int main() {
  check_rosenbrock();
  check_capture();
  check_chain();
  return check_finish();
}
