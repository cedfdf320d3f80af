// Enzyme's __enzyme_virtualreverse: a shadow object is given the table
// the function returns for its primal's (a virtual table, or a function
// pointer in a struct), as programs written for Enzyme do; adcc's
// derivatives dispatch on the primal's table, and the function returns
// the table it is given. Virtual calls through a base reference to two
// classes, and a function pointer held in a struct, in reverse and forward
// mode; checked against analytic values and central differences, forward
// against reverse.
#include "check.h"

#include <cmath>

extern int enzyme_dup, enzyme_const;
template <typename... Args> double __enzyme_autodiff(void *, Args...);
template <typename... Args> double __enzyme_fwddiff(void *, Args...);
template <typename T> T __enzyme_virtualreverse(T);

// (Types of the entry points' template arguments: not in an anonymous
// namespace, whose types have no linkage.)
struct Shape {
  virtual double energy(double v) = 0;
  virtual ~Shape() = default;
  double k = 0;
};
struct Spring : Shape {
  double energy(double v) override { return 0.5 * k * v * v; }
};
struct Pendulum : Shape {
  double energy(double v) override { return k * (1 - std::cos(v)); }
};

double total(Shape &s, double v) { return s.energy(v) * v; }

struct Holder {
  double (*fn)(double);
  double val;
};
double cube(double x) { return x * x * x; }
double apply(Holder *h) { return h->fn(h->val) + h->val; }

namespace {

template <typename S> double total_of(double v) {
  S s;
  s.k = 3;
  return total(s, v);
}

double central(double (*g)(double), double t) {
  double h = 1e-6 * (std::fabs(t) > 1 ? std::fabs(t) : 1);
  return (g(t + h) - g(t - h)) / (2 * h);
}

template <typename S> void check_class(double v, double dk_want,
                                       double dv_want) {
  S s, ds;
  s.k = 3;
  *reinterpret_cast<void **>(&ds) =
      __enzyme_virtualreverse(*reinterpret_cast<void **>(&ds));
  ds.k = 0;
  double dv = __enzyme_autodiff((void *)total, enzyme_dup, (Shape *)&s,
                                (Shape *)&ds, v);
  CHECK_CLOSE(dv, dv_want, 1e-12);
  CHECK_CLOSE(dv, central(total_of<S>, v), 1e-6);
  CHECK_CLOSE(ds.k, dk_want, 1e-12);
  // forward mode along (dk, dv) = (0.5, 2): the dot product with the
  // gradient
  ds.k = 0.5;
  double t = __enzyme_fwddiff((void *)total, enzyme_dup, (Shape *)&s,
                              (Shape *)&ds, v, 2.0);
  CHECK_CLOSE(t, 0.5 * dk_want + 2 * dv_want, 1e-12);
}

} // namespace

int main() {
  const double v = 0.7, k = 3;
  // total = k v^3 / 2: d/dk = v^3 / 2, d/dv = 3 k v^2 / 2
  check_class<Spring>(v, v * v * v / 2, 1.5 * k * v * v);
  // total = k (1 - cos v) v: d/dk = (1 - cos v) v,
  // d/dv = k (sin v v + 1 - cos v)
  check_class<Pendulum>(v, (1 - std::cos(v)) * v,
                        k * (std::sin(v) * v + 1 - std::cos(v)));
  // a function pointer in a struct
  Holder h{cube, 1.5}, dh{__enzyme_virtualreverse(cube), 0.0};
  __enzyme_autodiff((void *)apply, &h, &dh);
  CHECK_CLOSE(dh.val, 3 * 1.5 * 1.5 + 1, 1e-12);
  CHECK_TRUE(dh.fn == cube);
  dh.val = 1.0;
  CHECK_CLOSE(__enzyme_fwddiff((void *)apply, &h, &dh), 3 * 1.5 * 1.5 + 1,
              1e-12);
  return check_finish();
}
