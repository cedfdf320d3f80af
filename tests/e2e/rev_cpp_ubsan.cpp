// Reverse mode of C++ code built with UBSan (registered with
// -fsanitize=undefined): its pointer checks freeze the pointers they test,
// and the shadow of a frozen pointer was missing (null) in the augmented
// sweep, so the reverse sweep's additions into the std::vector's shadow
// went to address 0; the optimizer made that path unreachable and the
// gradient freed the vector's buffer twice ("double free detected" at -O2,
// a crash at -O1). A std::vector built, transformed in place and summed,
// and the same over a constant argument's vector; central differences and
// forward mode.
#include "rev_check.h"

#include <algorithm>
#include <numeric>
#include <vector>

static double run(const double *x) {
  std::vector<double> t(x, x + 5);
  std::transform(t.begin(), t.end(), t.begin(),
                 [](double a) { return std::sin(a) * a; });
  return std::accumulate(t.begin(), t.end(), 0.0);
}

struct Weights {
  std::vector<double> w;
};
static const Weights weights{{0.5, -1.0, 2.0, 1.5, 0.25}};

static double weighted(const double *x) {
  std::vector<double> t(x, x + 5);
  std::transform(t.begin(), t.end(), weights.w.begin(), t.begin(),
                 [](double a, double w) { return std::exp(0.3 * a) * w; });
  return std::inner_product(t.begin(), t.end(), x, 0.0);
}

int main() {
  CHECK_GRAD_AND_DOT(run, 5, 1.0);
  CHECK_GRAD_AND_DOT(weighted, 5, 1.0);
  return check_finish();
}
