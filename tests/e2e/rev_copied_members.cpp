// A step-size controller copied into the object that holds it (the
// adaptive iterator of github.com/acdemiralp/ode, whose PID controller
// keeps its past errors in a std::array beside a std::function limiter):
// the implicit copy constructor moves the doubles before the std::function
// and the two arrays after it with memcpy. Nothing in the function reads
// those bytes as numbers (at -O0 the copy constructor is a function of its
// own, addressing `&this->beta`; at -O1 and up the holder's constructor,
// not inlined, copies its `Controller const&` parameter's fields addressed
// in bytes), so the type analysis knew nothing of them and the gradient
// was refused at every level ("a memory copy whose contents cannot be
// typed"). The struct types the address computation or the parameter's
// C++ type names say which bytes are doubles. The holder is copied once
// more mid-run, when the errors it keeps have derivatives, which the copy
// carries. Checked against central differences and forward mode.
#include "check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

extern int enzyme_dup, enzyme_const;
extern "C" {
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

struct Controller {
  double next(double estimate) {
    err[0] = 1 / estimate;
    double optimal =
        std::pow(err[0], beta[0]) * std::pow(err[1], beta[1]) * err[2];
    double limited = limiter(optimal);
    std::rotate(err.rbegin(), err.rbegin() + 1, err.rend());
    return limited;
  }
  const double tolerance = 1e-6, safety = 0.81;
  const std::function<double(double)> limiter = [](double v) {
    return 1 + 0.5 * std::atan(v - 1);
  };
  const std::array<double, 3> beta = {0.7, -0.4, 0};
  std::array<double, 3> err = {0.5, 0.25, 1.5};
};

struct Stepper {
  // (Not inlined: at -O1 and up it copies the fields of its parameter.)
  __attribute__((noinline)) explicit Stepper(double h,
                                             const Controller &c = Controller())
      : h(h), c(c) {}
  double h;
  Controller c;
  void step(double &y) {
    h *= c.next(y * y + 1);
    y += h * std::sin(y);
  }
};

static double run(const double *y0, int n) {
  Stepper s(0.1);
  double y = *y0;
  for (int i = 0; i < n; ++i)
    s.step(y);
  // A copy while the controller's errors have derivatives.
  Stepper t = s;
  for (int i = 0; i < n; ++i)
    t.step(y);
  return y + t.h;
}

int main() {
  const int n = 4;
  for (double y0 : {0.7, -1.3, 2.1}) {
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
