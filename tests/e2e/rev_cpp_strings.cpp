// Reverse and forward mode through functions that also handle text: a
// std::string built, appended to and compared, a std::ostringstream fed
// the values (numbers included), std::to_string of an active value, output
// to std::cout, and a std::out_of_range from std::string::at caught inside.
// The C++ library's string and stream functions are inactive (their calls
// are kept as is; InactiveFunctions.cpp); the text changes no derivative.
// Before, each failed with "the external function ... has no body".
#include "rev_check.h"

#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

static double labelled(const double *x) {
  std::string name = "model";
  name += "-";
  name += std::to_string(x[0]); // the text of an active value
  std::ostringstream log;
  log << name << ": " << x[0] << ", " << x[1] << '\n';
  if (x[0] > 1e6) // never: the output path is still compiled
    std::cout << log.str() << std::endl;
  double scale = name.compare(0, 5, "model") == 0 ? 2.0 : 1.0;
  try {
    scale += static_cast<double>(name.at(100)); // throws out_of_range
  } catch (const std::out_of_range &) {
    scale += 0.5;
  }
  return scale * x[0] * x[1] + std::sin(x[1]) * (1 + log.str().size() % 2);
}

int main() {
  double x[2] = {0.7, -1.3};
  double g[2] = {0, 0};
  __enzyme_autodiff((void *)labelled, x, g);
  // scale = 2.5; the text "model-0.700000: 0.7, -1.3\n" has 26 characters.
  double exact[2] = {2.5 * x[1], 2.5 * x[0] + std::cos(x[1])};
  CHECK_GRAD(labelled, x, 2, g, exact);
  double v[2];
  double s = rev_dir(g, v, 2);
  CHECK_CLOSE(s, __enzyme_fwddiff((void *)labelled, x, v), REV_TOL_DOT);
  printf("labelled: d/dx = %.12f %.12f\n", g[0], g[1]);
  return check_finish();
}
