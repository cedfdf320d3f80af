// Reverse mode of a function that builds an exception's message with
// std::string (std::to_string, operator+) before throwing it: the
// library's string functions are inactive, so the gradient is that of the
// path taken, and the thrown exception reaches the caller with its message.
// (Rejected until the strings work: "the external function
// '_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructEmc'
// has no body and no derivative rule". Values thrown directly:
// rev_throw_value.cpp.)
#include "rev_check.h"

#include <stdexcept>
#include <string>

static double g(double x, int i) {
  if (x > 10)
    throw std::runtime_error("bad " + std::to_string(i));
  return x * x;
}

int main() {
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
