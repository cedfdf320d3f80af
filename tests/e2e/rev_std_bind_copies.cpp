// std::function objects holding std::bind's result, copied and assigned
// from other std::functions. From -O1 the handler's manager clones the
// std::_Bind object (kept on the heap, a class template's specialization
// holding a function pointer and the bound values in a std::tuple) as
// bytes: typed since 2026-12-06 by the layout the frontend records for the
// specialization (adcore/TemplateRecords.h); "a memory copy whose contents
// cannot be typed" before. Bound values with derivatives: a double, and a
// struct of doubles bound to a member function. Checked against central
// differences and forward mode at every level.
#include "check.h"

#include <cmath>
#include <functional>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

static double blend(double a, double b, double c) {
  return a * b * std::sin(c);
}

struct Spring {
  double stiffness, rest;
  double energy(double x) const {
    double d = x - rest;
    return 0.5 * stiffness * d * d;
  }
};

static double run(double k) {
  std::function<double(double)> f =
      std::bind(blend, k, std::placeholders::_1, 2.0 * k);
  std::function<double(double)> g;
  g = f; // (copy assignment: the manager clones the bind object)
  std::function<double(double)> h(g);
  Spring s = {3.0 * k, 0.5};
  std::function<double(double)> e =
      std::bind(&Spring::energy, s, std::placeholders::_1);
  std::function<double(double)> e2;
  e2 = e;
  return g(3.0) + h(k) + e2(k * k);
}

int main() {
  for (double k : {0.7, -0.4, 1.3}) {
    double d = __enzyme_autodiff((void *)run, k);
    double h = 1e-6;
    double fd = (run(k + h) - run(k - h)) / (2 * h);
    CHECK_CLOSE(d, fd, 1e-6);
    double t = __enzyme_fwddiff((void *)run, k, 1.0);
    CHECK_CLOSE(t, d, 1e-12);
    CHECK_TRUE(std::fabs(d) > 1e-3);
  }
  return check_finish();
}
