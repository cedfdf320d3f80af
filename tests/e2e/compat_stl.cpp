// Enzyme-style C++ with the standard library: the state in std::vector,
// std::inner_product, std::transform with a lambda, std::accumulate,
// std::max_element, a std::map of coefficients by name; gradient through a
// pointer to the vector (enzyme_dup of &x, &dx) and the C++ template form
// of the entry points.
#include "check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

extern int enzyme_dup, enzyme_const;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);

struct Model {
  std::map<std::string, double> coef;
};

static double energy(const std::vector<double> *xp, const Model *m) {
  const std::vector<double> &x = *xp;
  std::vector<double> y(x.size());
  double k = m->coef.at("stiffness");
  std::transform(x.begin(), x.end(), y.begin(),
                 [k](double v) { return std::sin(k * v) + v * v; });
  double dot = std::inner_product(x.begin(), x.end(), y.begin(), 0.0);
  double sum = std::accumulate(y.begin(), y.end(), 0.0);
  double peak = *std::max_element(y.begin(), y.end());
  return dot + 0.5 * sum * sum + m->coef.at("peak") * peak;
}

int main() {
  Model m;
  m.coef["stiffness"] = 1.7;
  m.coef["peak"] = 0.3;
  std::vector<double> x = {0.3, -0.8, 1.1, 0.45};
  std::vector<double> dx(x.size(), 0.0);
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, &x, &dx, enzyme_const,
                          &m);
  for (size_t i = 0; i < x.size(); ++i) {
    double keep = x[i], h = 1e-6;
    x[i] = keep + h;
    double up = energy(&x, &m);
    x[i] = keep - h;
    double down = energy(&x, &m);
    x[i] = keep;
    CHECK_CLOSE(dx[i], (up - down) / (2 * h), 1e-6);
    // forward mode, one direction per coordinate
    std::vector<double> t(x.size(), 0.0);
    t[i] = 1;
    double ti = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, &x, &t,
                                         enzyme_const, &m);
    CHECK_CLOSE(ti, dx[i], 1e-10);
  }
  return check_finish();
}
