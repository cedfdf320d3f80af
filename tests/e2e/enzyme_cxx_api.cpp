// Enzyme's C++ interface, <enzyme/enzyme>, as programs written for Enzyme
// use it: enzyme::autodiff in every mode with Active, Duplicated (pointers,
// references, values in forward mode), DuplicatedNoNeed and Const
// arguments, functions, lambdas, functors and templates, results through
// enzyme::get and structured bindings, results that C++ returns through
// memory (std::vector). Checked against analytic values and
// forward against reverse, at every level.
#include "check.h"

#include <enzyme/enzyme>

#include <cmath>
#include <vector>

namespace {

double wave(double x, const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * std::sin(x * p[i]);
  return s;
}
double dwave_dx(double x, const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i] * std::cos(x * p[i]);
  return s;
}

double scaled_square(double &x, double y) { return x * x * y; }

// Writes its result: the derivative goes through the shadows.
void residual(const double *x, double *r) {
  r[0] = x[0] * x[1];
  r[1] = std::exp(x[0]);
}

struct Spring {
  double k;
  double operator()(double x, double v) const { return 0.5 * k * x * x + v * v; }
};

template <typename T> T cube(T x) { return x * x * x; }

// A functor whose operator() is not const, overloaded on the argument's
// type (Enzyme's C++ interface takes it as the program gives it).
struct Scaled {
  int calls = 0;
  double operator()(double x) {
    ++calls;
    return 10 * x * x;
  }
  float operator()(float x) { return 2 * x; }
};

// A result that C++ returns through memory (a std::vector): forward mode
// gives the tangent as another vector.
std::vector<double> stress(const std::vector<double> &strain, double k) {
  std::vector<double> s(strain.size() + 1);
  for (std::size_t i = 0; i < strain.size(); ++i)
    s[i] = k * std::sin(strain[i]) * strain[i];
  s.back() = strain[0] * strain[1];
  return s;
}

} // namespace

int main() {
  double p[3] = {1, 2, 3}, dp[3] = {0, 0, 0};
  const double x = 0.5;

  // Reverse: the adjoints of the Active arguments, in a tuple in a tuple;
  // a Duplicated pointer's adjoints are added into its shadow.
  auto r = enzyme::autodiff<enzyme::Reverse>(
      wave, enzyme::Active(x), enzyme::Duplicated<const double *>(p, dp),
      enzyme::Const(3));
  auto [dx] = enzyme::get<0>(r);
  CHECK_CLOSE(dx, dwave_dx(x, p, 3), 1e-12);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(dp[i], std::sin(x * p[i]) + x * p[i] * std::cos(x * p[i]),
                1e-12);

  // ReverseWithPrimal: the adjoints, then the result.
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      wave, enzyme::Active(x), enzyme::Const<const double *>(p),
      enzyme::Const(3));
  CHECK_CLOSE(enzyme::get<0>(enzyme::get<0>(rp)), dwave_dx(x, p, 3), 1e-12);
  CHECK_CLOSE(enzyme::get<1>(rp), wave(x, p, 3), 1e-15);

  // Forward: the tangent; ForwardWithPrimal: the tangent, then the result;
  // an explicit Duplicated return: the result, then the tangent.
  auto t = enzyme::autodiff<enzyme::Forward>(
      wave, enzyme::Duplicated(x, 1.0), enzyme::Const<const double *>(p),
      enzyme::Const(3));
  CHECK_CLOSE(enzyme::get<0>(t), dwave_dx(x, p, 3), 1e-12);
  auto tp = enzyme::autodiff<enzyme::ForwardWithPrimal>(
      wave, enzyme::Duplicated(x, 2.0), enzyme::Const<const double *>(p),
      enzyme::Const(3));
  CHECK_CLOSE(enzyme::get<0>(tp), 2 * dwave_dx(x, p, 3), 1e-12);
  CHECK_CLOSE(enzyme::get<1>(tp), wave(x, p, 3), 1e-15);
  auto td = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      wave, enzyme::Duplicated(x, 1.0), enzyme::Const<const double *>(p),
      enzyme::Const(3));
  CHECK_CLOSE(enzyme::get<0>(td), wave(x, p, 3), 1e-15);
  CHECK_CLOSE(enzyme::get<1>(td), dwave_dx(x, p, 3), 1e-12);
  // Forward mode through a pointer's shadow: the tangent of p.
  double tp3[3] = {1, 0, 0};
  auto tpp = enzyme::autodiff<enzyme::Forward>(
      wave, enzyme::Const(x), enzyme::Duplicated<const double *>(p, tp3),
      enzyme::Const(3));
  CHECK_CLOSE(enzyme::get<0>(tpp), dp[0], 1e-12);

  // References: the shadow of a Duplicated<T &> receives the adjoint.
  double y = 2, dy = 0;
  auto rr = enzyme::autodiff<enzyme::Reverse>(
      scaled_square, enzyme::Duplicated<double &>(y, dy), enzyme::Active(3.0));
  CHECK_CLOSE(dy, 12.0, 1e-15);
  CHECK_CLOSE(enzyme::get<0>(enzyme::get<0>(rr)), 4.0, 1e-15);

  // A void function: adjoints from the seeds in the shadows
  // (DuplicatedNoNeed: the primal output is not wanted).
  double in[2] = {1.5, 2.0}, din[2] = {0, 0}, out[2], dout[2] = {1, 1};
  enzyme::autodiff<enzyme::Reverse>(
      residual, enzyme::Duplicated<const double *>(in, din),
      enzyme::DuplicatedNoNeed<double *>(out, dout));
  CHECK_CLOSE(din[0], in[1] + std::exp(in[0]), 1e-12);
  CHECK_CLOSE(din[1], in[0], 1e-12);
  // Forward over the same: tangents land in the output's shadow.
  double tin[2] = {1, 0}, tout[2] = {0, 0};
  enzyme::autodiff<enzyme::Forward>(
      residual, enzyme::Duplicated<const double *>(in, tin),
      enzyme::Duplicated<double *>(out, tout));
  CHECK_CLOSE(tout[0], in[1], 1e-12);
  CHECK_CLOSE(tout[1], std::exp(in[0]), 1e-12);

  // Lambdas (captures are constant), functors, templates.
  double c = 4;
  auto lam = [&c](double a, double b) { return c * a * b; };
  auto [da, db] = enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active(2.0),
                                        enzyme::Active(5.0)));
  CHECK_CLOSE(da, 20.0, 1e-15);
  CHECK_CLOSE(db, 8.0, 1e-15);
  Spring s{3.0};
  auto [dsx, dsv] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      s, enzyme::Active(2.0), enzyme::Active(0.5)));
  CHECK_CLOSE(dsx, 6.0, 1e-15);
  CHECK_CLOSE(dsv, 1.0, 1e-15);
  auto [dc] = enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(cube<double>, enzyme::Active(2.0)));
  CHECK_CLOSE(dc, 12.0, 1e-15);
  auto [dcf] = enzyme::get<0>(
      enzyme::autodiff<enzyme::Reverse>(cube<float>, enzyme::Active(2.0f)));
  CHECK_CLOSE(dcf, 12.0, 1e-6);
  CHECK_CLOSE(enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
                  cube<double>, enzyme::Duplicated(2.0, 1.0))),
              12.0, 1e-15);
  // Mixed float and double adjoints: laid out as C lays out their struct
  // (a float pair, then the double at byte 8), through both interfaces.
  auto mixed = [](float a, float b, double c) { return a * 2 + b * 3 + c * 5; };
  auto [ma, mb, mc] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      mixed, enzyme::Active(1.0f), enzyme::Active(1.0f), enzyme::Active(1.0)));
  CHECK_CLOSE(ma, 2.0, 0);
  CHECK_CLOSE(mb, 3.0, 0);
  CHECK_CLOSE(mc, 5.0, 0);
  auto [na, nb, nc] = adcc::gradient(mixed, adcc::Active(1.0f),
                                     adcc::Active(1.0f), adcc::Active(1.0));
  CHECK_CLOSE(na, 2.0, 0);
  CHECK_CLOSE(nb, 3.0, 0);
  CHECK_CLOSE(nc, 5.0, 0);
  // A non-const functor: the overload of the argument's type is called.
  {
    Scaled sc;
    auto [dd] = enzyme::get<0>(
        enzyme::autodiff<enzyme::Reverse>(sc, enzyme::Active(1.5)));
    CHECK_CLOSE(dd, 30.0, 1e-15);
    auto [df] = enzyme::get<0>(
        enzyme::autodiff<enzyme::Reverse>(sc, enzyme::Active(1.5f)));
    CHECK_CLOSE(df, 2.0, 0);
    CHECK_CLOSE(enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
                    sc, enzyme::Duplicated(1.5, 1.0))),
                30.0, 1e-15);
    CHECK_TRUE(sc.calls >= 2);
  }
  // Results through memory: DuplicatedNoNeed (the tangent vector),
  // Duplicated (value, tangent), ForwardWithPrimal (tangent, value).
  {
    std::vector<double> e{0.3, -0.8}, de{1.0, 0.5};
    auto want = [&](std::size_t i) {
      if (i == 2)
        return de[0] * e[1] + e[0] * de[1];
      return 2.5 * (std::cos(e[i]) * e[i] + std::sin(e[i])) * de[i];
    };
    auto [dt] = enzyme::autodiff<enzyme::Forward,
                                 enzyme::DuplicatedNoNeed<std::vector<double>>>(
        stress, enzyme::Duplicated<const std::vector<double> &>(e, de),
        enzyme::Const<double>(2.5));
    CHECK_TRUE(dt.size() == 3);
    for (std::size_t i = 0; i < 3; ++i)
      CHECK_CLOSE(dt[i], want(i), 1e-15);
    auto [v, t] =
        enzyme::autodiff<enzyme::Forward,
                         enzyme::Duplicated<std::vector<double>>>(
            stress, enzyme::Duplicated<const std::vector<double> &>(e, de),
            enzyme::Const<double>(2.5));
    auto [t2, v2] = enzyme::autodiff<enzyme::ForwardWithPrimal,
                                     enzyme::Duplicated<std::vector<double>>>(
        stress, enzyme::Duplicated<const std::vector<double> &>(e, de),
        enzyme::Const<double>(2.5));
    std::vector<double> s = stress(e, 2.5);
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK_CLOSE(v[i], s[i], 0);
      CHECK_CLOSE(v2[i], s[i], 0);
      CHECK_CLOSE(t[i], want(i), 1e-15);
      CHECK_CLOSE(t2[i], want(i), 1e-15);
    }
  }
  // A pointer given for a reference parameter (enzyme::Duplicated<T *>
  // for a `const T &`), as Enzyme accepts: the object it points to.
  {
    auto energy = [](const std::vector<double> &u, const double &w) {
      double s = 0;
      for (double v : u)
        s += w * v * v * v;
      return s;
    };
    std::vector<double> u{0.5, -1.5, 2.0}, du{1.0, 0.25, -0.5};
    double w = 1.5, fwd = 0;
    for (std::size_t i = 0; i < 3; ++i)
      fwd += 3 * w * u[i] * u[i] * du[i];
    auto [t] = enzyme::autodiff<enzyme::Forward>(
        energy, enzyme::Duplicated<std::vector<double> *>(&u, &du),
        enzyme::Const<double *>(&w));
    CHECK_CLOSE(t, fwd, 1e-14);
    std::vector<double> gu(3, 0.0);
    enzyme::autodiff<enzyme::Reverse>(
        energy, enzyme::Duplicated<std::vector<double> *>(&u, &gu),
        enzyme::Const<double *>(&w));
    for (std::size_t i = 0; i < 3; ++i)
      CHECK_CLOSE(gu[i], 3 * w * u[i] * u[i], 1e-14);
  }
  return check_finish();
}
