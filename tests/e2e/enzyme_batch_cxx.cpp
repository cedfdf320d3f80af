// Batched forward mode in Enzyme's C++ interface: enzyme::BatchDuplicated
// <T, N>(x, {dx_0, ..., dx_N-1}) with enzyme::autodiff<enzyme::Forward>
// and <enzyme::ForwardWithPrimal>: scalars (a gradient in one call),
// pointers to arrays (the columns of a Jacobian, written through output
// shadows), Const arguments beside them, a lambda and a functor. Each lane
// is checked against the width-1 call with its tangents, against analytic
// values and central differences, and against reverse mode (dot products).
#include "check.h"

#include <enzyme/enzyme>

#include <cmath>

namespace {

double f(double x, double y) { return x * x * y + std::sin(y); }
double f_of_x(double x) { return f(x, 0.5); }
double f_of_y(double y) { return f(1.5, y); }

double weighted(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * p[i] * p[i] * p[(i + 1) % n];
  return s;
}

// y = [x0 x1, exp(x0) + x1^2]
void residual(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = std::exp(x[0]) + x[1] * x[1];
}

struct Spring {
  double k;
  double operator()(double x, double v) const {
    return 0.5 * k * x * x + v * v * x;
  }
};

double central(double (*g)(double), double t) {
  double h = 1e-6 * (std::fabs(t) > 1 ? std::fabs(t) : 1);
  return (g(t + h) - g(t - h)) / (2 * h);
}

} // namespace

int main() {
  const double x = 1.5, y = 0.5;
  { // the gradient of f in one batched call: lane k seeds argument k
    auto r = enzyme::autodiff<enzyme::Forward>(
        f, enzyme::BatchDuplicated<double, 2>(x, {1.0, 0.0}),
        enzyme::BatchDuplicated<double, 2>(y, {0.0, 1.0}));
    static_assert(enzyme::tuple_size_v<decltype(r)> == 1);
    auto [dx, dy] = enzyme::get<0>(r);
    CHECK_CLOSE(dx, 2 * x * y, 1e-12);
    CHECK_CLOSE(dy, x * x + std::cos(y), 1e-12);
    CHECK_CLOSE(dx, central(f_of_x, x), 1e-6);
    CHECK_CLOSE(dy, central(f_of_y, y), 1e-6);
    // each lane is the width-1 derivative with its tangents
    double w0 = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
        f, enzyme::Duplicated(x, 1.0), enzyme::Duplicated(y, 0.0)));
    CHECK_CLOSE(dx, w0, 1e-15);
    // forward against reverse
    auto g = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
        f, enzyme::Active(x), enzyme::Active(y)));
    CHECK_CLOSE(dx, enzyme::get<0>(g), 1e-12);
    CHECK_CLOSE(dy, enzyme::get<1>(g), 1e-12);
  }
  { // with the primal, three lanes, a Const argument (CTAD from std::array)
    auto r = enzyme::autodiff<enzyme::ForwardWithPrimal>(
        f, enzyme::BatchDuplicated(x, std::array<double, 3>{1.0, 0.0, 2.0}),
        enzyme::Const<double>(y));
    auto [t0, t1, t2] = enzyme::get<0>(r);
    CHECK_CLOSE(enzyme::get<1>(r), f(x, y), 1e-15);
    CHECK_CLOSE(t0, 2 * x * y, 1e-12);
    CHECK_CLOSE(t1, 0.0, 1e-15);
    CHECK_CLOSE(t2, 4 * x * y, 1e-12);
  }
  { // pointers: directional derivatives of weighted along two directions
    double p[3] = {1, -2, 0.5}, e0[3] = {1, 0, 0}, v[3] = {0.3, -1, 2};
    auto r = enzyme::autodiff<enzyme::Forward>(
        weighted, enzyme::BatchDuplicated<const double *, 2>(p, {e0, v}),
        enzyme::Const<int>(3));
    double grad[3] = {0, 0, 0};
    enzyme::autodiff<enzyme::Reverse>(
        weighted, enzyme::Duplicated<const double *>(p, grad),
        enzyme::Const<int>(3));
    double dot = grad[0] * v[0] + grad[1] * v[1] + grad[2] * v[2];
    // d/dp0 of p0^2 p1 + 2 p1^2 p2 + 3 p2^2 p0 = 2 p0 p1 + 3 p2^2
    CHECK_CLOSE(enzyme::get<0>(enzyme::get<0>(r)), 2 * p[0] * p[1] + 3 * p[2] * p[2],
                1e-12);
    CHECK_CLOSE(enzyme::get<0>(enzyme::get<0>(r)), grad[0], 1e-12);
    CHECK_CLOSE(enzyme::get<1>(enzyme::get<0>(r)), dot, 1e-12);
  }
  { // the two columns of residual's Jacobian, through output shadows
    double xs[2] = {0.3, 0.7}, ys[2], d0[2] = {1, 0}, d1[2] = {0, 1};
    double c0[2], c1[2];
    auto r = enzyme::autodiff<enzyme::Forward>(
        residual, enzyme::BatchDuplicated<const double *, 2>(xs, {d0, d1}),
        enzyme::BatchDuplicated<double *, 2>(ys, {c0, c1}));
    static_assert(enzyme::tuple_size_v<decltype(r)> == 0);
    CHECK_CLOSE(ys[0], xs[0] * xs[1], 1e-15);
    CHECK_CLOSE(c0[0], xs[1], 1e-15);
    CHECK_CLOSE(c0[1], std::exp(xs[0]), 1e-15);
    CHECK_CLOSE(c1[0], xs[0], 1e-15);
    CHECK_CLOSE(c1[1], 2 * xs[1], 1e-15);
  }
  { // a functor (its state constant) and a lambda
    Spring s{3.0};
    auto r = enzyme::autodiff<enzyme::Forward>(
        s, enzyme::BatchDuplicated<double, 2>(0.4, {1.0, 0.0}),
        enzyme::BatchDuplicated<double, 2>(2.0, {0.0, 1.0}));
    CHECK_CLOSE(enzyme::get<0>(enzyme::get<0>(r)), 3.0 * 0.4 + 4.0, 1e-12);
    CHECK_CLOSE(enzyme::get<1>(enzyme::get<0>(r)), 2 * 2.0 * 0.4, 1e-12);
    double k = 2.5;
    auto cube = [k](double t) { return k * t * t * t; };
    auto c = enzyme::autodiff<enzyme::Forward>(
        cube, enzyme::BatchDuplicated<double, 4>(2.0, {1.0, 2.0, 0.0, -1.0}));
    auto [a, b, z, m] = enzyme::get<0>(c);
    CHECK_CLOSE(a, 3 * k * 4.0, 1e-12);
    CHECK_CLOSE(b, 6 * k * 4.0, 1e-12);
    CHECK_CLOSE(z, 0.0, 1e-15);
    CHECK_CLOSE(m, -3 * k * 4.0, 1e-12);
  }
  return check_finish();
}
