// Enzyme's attributes in C++: on member functions (which no registration
// global can name), static members, function templates (every
// instantiation is marked) and in the C++11 spellings `[[enzyme_inactive]]`
// and `[[enzyme::...]]`, in forward and reverse mode at every level.
#include "check.h"

#include <cmath>
#include <initializer_list>

extern "C" {
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
}

namespace {

struct Logger {
  double last = 0;
  int calls = 0;
  // Records a value; no derivative flows through it.
  [[enzyme::inactive]] __attribute__((noinline)) double note(double v) {
    last = v;
    ++calls;
    return v;
  }
  [[enzyme_inactive]] static double identity(double v) { return v; }
};

Logger logger;

template <class T> [[enzyme::inactive]] T frozen(T x) { return x * x; }

// The value of log1p, whose body passes no derivative: only the rule of
// log1p, taken by the mark, gives one.
[[enzyme::function_like("log1p")]] double my_log1p(double x) {
  return std::log1p(Logger::identity(x));
}

double model(double x) {
  return logger.note(x) * x + Logger::identity(x) * x +
         frozen(x) * x + double(frozen(float(x))) + my_log1p(x);
}

double model_dx(double x) {
  return x + x + x * x + 1 / (1 + x);
}

} // namespace

int main() {
  for (double x : {0.4, 2.5}) {
    CHECK_CLOSE(__enzyme_fwddiff((void *)model, x, 1.0), model_dx(x), 1e-12);
    CHECK_CLOSE(__enzyme_autodiff((void *)model, x), model_dx(x), 1e-12);
  }
  // The primal still runs the marked functions.
  CHECK_TRUE(logger.calls > 0);
  CHECK_CLOSE(my_log1p(0.5), std::log1p(0.5), 1e-15);
  return check_finish();
}
