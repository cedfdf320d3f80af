// PENDING (not registered): exceptions carrying values, in reverse mode.
// 1. Throwing a value computed from an active input (throw x; or
//    throw Bad{3, x}) is rejected at every level:
//      error: cannot differentiate 'f(double)' in reverse mode: a value with
//      a derivative is stored into memory that has no shadow (a global
//      variable?)
//    The exception object (__cxa_allocate_exception) should be inactive
//    memory: the primal value is thrown, no derivative flows through it.
//    Forward mode rejects it as well ("a derivative is stored into memory
//    that has no shadow").
// 2. Building the message with std::string (std::to_string, operator+) in
//    the differentiated function is rejected: "the external function
//    '_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructEmc'
//    has no body and no derivative rule" (std::string is an extern
//    template; its members handle no floating-point data).
#include "rev_check.h"

#include <stdexcept>
#include <string>

static double f(double x) {
  if (x > 10)
    throw x;
  return x * x;
}
static double g(double x, int i) {
  if (x > 10)
    throw std::runtime_error("bad " + std::to_string(i));
  return x * x;
}

int main() {
  CHECK_CLOSE(__enzyme_autodiff((void *)f, 3.0), 6.0, REV_TOL_EXACT);
  double got = 0;
  try {
    __enzyme_autodiff((void *)f, 11.0);
  } catch (double d) {
    got = d;
  }
  CHECK_CLOSE(got, 11.0, 0);
  CHECK_CLOSE(__enzyme_autodiff((void *)g, 3.0, 4), 6.0, REV_TOL_EXACT);
  std::string msg;
  try {
    __enzyme_autodiff((void *)g, 11.0, 4);
  } catch (const std::runtime_error &e) {
    msg = e.what();
  }
  CHECK_TRUE(msg == "bad 4");
  return check_finish();
}
