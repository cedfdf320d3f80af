// The C++ API (<adcc.hpp>): adcc::gradient and adcc::forward over a
// function, a functor and a lambda, with Active, Duplicated, Const and Dual
// arguments (Const pointers and doubles included), a complex Active value,
// checked against analytic values and central differences, and forward
// against reverse; forward mode over a function that calls adcc::gradient
// (a Hessian-vector product: the inner request must be made before the
// outer one differentiates the function adcc::forward reaches through its
// closure), at every level: also of a lambda with captures, a functor with
// data, with Const pointers, complex values and a std::vector (at -O0 the closures
// of the nested requests must be seen to hold no derivative); forward mode
// over the gradient of a lambda whose capture the outer mode differentiates;
// Active and Dual structs of more than 16 bytes and std::array results;
// jacobian and hvp with respect to std::arrays.
#include "check.h"
#include <adcc.hpp>
#include <cmath>
#include <array>
#include <complex>
#include <vector>

static double f(double x, const double *p, int n, double scale) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * std::sin(x * (i + 1));
  return scale * s * x;
}

static double g2(double x, double y, double c) {
  return c * x * x * y + std::sin(x * y);
}

struct Grad2 {
  double gx, gy;
};

/// The gradient of g2 in x and y, as a function forward mode differentiates.
static Grad2 grad2(double x, double y, double c) {
  auto [gx, gy] =
      adcc::gradient(g2, adcc::Active(x), adcc::Active(y), adcc::Const(c));
  return {gx, gy};
}

/// d/dx of a sin(x) x^2 at x = 0.8 through a lambda capturing a: constant
/// for the gradient, while forward mode over this function differentiates
/// in a (a mixed second derivative through the closure's memory).
static double slope_in_x(double a) {
  auto lam = [a](double x) { return a * std::sin(x) * x * x; };
  auto [g] = adcc::gradient(lam, adcc::Active(0.8));
  return g;
}

/// A struct too large for registers, by value: requests take it through a
/// pointer (Indirect arguments, adcc_request.hpp).
struct Frame {
  double origin[2];
  double angle;
};
static double frameEnergy(std::array<double, 3> x, Frame fr, double c) {
  return c * x[0] * x[1] + std::sin(x[2]) * x[0] +
         fr.origin[0] * fr.origin[1] * std::cos(fr.angle) * x[2];
}
static std::array<double, 3> curve(double t, std::array<double, 3> p) {
  return {t * p[0], std::sin(t) * p[1], p[2] * p[2] * t};
}

/// d/dx1 of x0^2 x1 + sin(x2) x1 at (a, 2, 0.5), through an Active
/// std::array: forward mode over it differentiates the Indirect copy.
static double slope_of_array(double a) {
  auto e = [](std::array<double, 3> x) {
    return x[0] * x[0] * x[1] + std::sin(x[2]) * x[1];
  };
  auto [g] = adcc::gradient(e, adcc::Active(std::array<double, 3>{a, 2, 0.5}));
  return g[1];
}

static double g2p(double x, double y, const double *c) {
  return c[0] * x * x * y + std::sin(x * y);
}

struct Cubic {
  double k;
  double operator()(double a, double b, double d) const {
    return a * b * d + k * std::exp(a - d);
  }
};

static std::array<double, 2> polar(double r, double t) {
  return {r * std::cos(t), r * std::sin(t)};
}

struct Model {
  double k;
  std::array<double, 3> operator()(double a, double c, double b) const {
    return {a * b, k * std::exp(a) * b, std::sin(b) + c * a};
  }
};

struct Spring {
  double k, rest;
  double operator()(double x, double y) const {
    double d = x - y - rest;
    return 0.5 * k * d * d;
  }
};

int main() {
  const double x = 0.5, h = 1e-6;
  double p[3] = {1, 2, 3}, dp[3] = {0, 0, 0};

  // d/dx and d/dp of f, n and scale constant
  auto [dx] = adcc::gradient(f, adcc::Active(x), adcc::Duplicated(p, dp),
                             adcc::Const(3), adcc::Const(2.0));
  CHECK_CLOSE(dx, (f(x + h, p, 3, 2) - f(x - h, p, 3, 2)) / (2 * h), 1e-7);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(dp[i], 2 * std::sin(x * (i + 1)) * x, 1e-12);
  // forward: the same derivative along x, p constant
  double t = adcc::forward(f, adcc::Dual(x, 1.0),
                           adcc::Const<const double *>(p), adcc::Const(3),
                           adcc::Const(2.0));
  CHECK_CLOSE(t, dx, 1e-12);
  // forward along p: a pointer and its tangent memory
  double tp[3] = {0, 1, 0};
  double t2 = adcc::forward(f, adcc::Const(x), adcc::Dual<const double *>(p, tp),
                            adcc::Const(3), adcc::Const(2.0));
  CHECK_CLOSE(t2, dp[1], 1e-12);

  // a functor: what it holds is constant
  Spring s{4, 0.5};
  auto [gx, gy] = adcc::gradient(s, adcc::Active(2.0), adcc::Active(0.5));
  CHECK_CLOSE(gx, 4 * (2.0 - 0.5 - 0.5), 1e-12);
  CHECK_CLOSE(gy, -4 * (2.0 - 0.5 - 0.5), 1e-12);
  CHECK_CLOSE(adcc::forward(s, adcc::Dual(2.0, 1.0), adcc::Dual(0.5, 1.0)), 0,
              1e-12);

  // a lambda with a capture, and a complex argument
  double k = 2;
  auto lam = [k](double a, std::complex<double> z) {
    return k * a * std::norm(z);
  };
  auto [la, lz] = adcc::gradient(lam, adcc::Active(1.5),
                                 adcc::Active(std::complex<double>(1, 2)));
  CHECK_CLOSE(la, 2 * 5, 1e-12);
  CHECK_CLOSE(lz.real(), 2 * 1.5 * 2 * 1, 1e-12);
  CHECK_CLOSE(lz.imag(), 2 * 1.5 * 2 * 2, 1e-12);
  CHECK_CLOSE(adcc::forward(lam, adcc::Dual(1.5, 1.0),
                            adcc::Const(std::complex<double>(1, 2))),
              la, 1e-12);

  // no Active argument: an empty tuple, the adjoints in the shadows
  double q[2] = {3, 4}, dq[2] = {0, 0};
  auto norm2 = [](const double *v) { return v[0] * v[0] + v[1] * v[1]; };
  auto none = adcc::gradient(norm2, adcc::Duplicated<const double>(q, dq));
  static_assert(std::tuple_size_v<decltype(none)> == 0);
  CHECK_CLOSE(dq[0], 6, 1e-12);
  CHECK_CLOSE(dq[1], 8, 1e-12);

  // forward over reverse: the Hessian of g2 times (vx, vy), against the
  // analytic Hessian
  {
    double a = 0.7, b = -1.3, c = 2.0, vx = 0.4, vy = 1.1;
    Grad2 hv = adcc::forward(grad2, adcc::Dual(a, vx), adcc::Dual(b, vy),
                             adcc::Const(c));
    double sn = std::sin(a * b), cs = std::cos(a * b);
    double hxx = 2 * c * b - b * b * sn, hxy = 2 * c * a + cs - a * b * sn,
           hyy = -a * a * sn;
    CHECK_CLOSE(hv.gx, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(hv.gy, hxy * vx + hyy * vy, 1e-12);

    auto [hx, hy] =
        adcc::hvp(g2, adcc::Dual(a, vx), adcc::Dual(b, vy), adcc::Const(c));
    CHECK_CLOSE(hx, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(hy, hxy * vx + hyy * vy, 1e-12);
    auto [ht] = adcc::hvp([](float t) { return t * t * t; },
                          adcc::Dual(2.0f, 3.0f));
    CHECK_CLOSE(ht, 6 * 2 * 3, 1e-6);
    const double cs1[1] = {c};
    auto [px, py] = adcc::hvp(g2p, adcc::Dual(a, vx), adcc::Dual(b, vy),
                              adcc::Const(&cs1[0]));
    CHECK_CLOSE(px, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(py, hxy * vx + hyy * vy, 1e-12);
    auto captured = [c](double s, double t) {
      return c * s * s * t + std::sin(s * t);
    };
    auto [lx, ly] =
        adcc::hvp(captured, adcc::Dual(a, vx), adcc::Dual(b, vy));
    CHECK_CLOSE(lx, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(ly, hxy * vx + hyy * vy, 1e-12);
    // three arguments: the Hessian of a b d + k exp(a - d) times v
    Cubic cubic{2.0};
    double p0 = 0.3, p1 = 0.5, p2 = 0.2, v0 = 1.0, v1 = -2.0, v2 = 0.5;
    double e = 2.0 * std::exp(p0 - p2);
    auto [h0, h1, h2] = adcc::hvp(cubic, adcc::Dual(p0, v0),
                                  adcc::Dual(p1, v1), adcc::Dual(p2, v2));
    CHECK_CLOSE(h0, e * v0 + p2 * v1 + (p1 - e) * v2, 1e-12);
    CHECK_CLOSE(h1, p2 * v0 + p0 * v2, 1e-12);
    CHECK_CLOSE(h2, (p1 - e) * v0 + p0 * v1 + e * v2, 1e-12);
    // a Const complex value and a Const pointer besides the Dual ones, in
    // the middle: the Hessian of Re(z) s^2 t + w[0] sin(s t)
    const std::complex<double> z(c, -5.0);
    const double w1[1] = {1.0};
    auto mixed = [](double s, std::complex<double> zz, const double *ww,
                    double t) {
      return zz.real() * s * s * t + ww[0] * std::sin(s * t);
    };
    auto [mx, my] = adcc::hvp(mixed, adcc::Dual(a, vx), adcc::Const(z),
                              adcc::Const(&w1[0]), adcc::Dual(b, vy));
    CHECK_CLOSE(mx, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(my, hxy * vx + hyy * vy, 1e-12);
    // a Const std::vector by value (copied by its constructor)
    const std::vector<double> cv{c};
    auto byvec = [](double s, std::vector<double> cc, double t) {
      return cc[0] * s * s * t + std::sin(s * t);
    };
    auto [vx1, vy1] = adcc::hvp(byvec, adcc::Dual(a, vx), adcc::Const(cv),
                                adcc::Dual(b, vy));
    CHECK_CLOSE(vx1, hxx * vx + hxy * vy, 1e-12);
    CHECK_CLOSE(vy1, hxy * vx + hyy * vy, 1e-12);
    // against central differences of the gradient in the direction
    Spring sp{3.0, 0.25};
    auto [sx, sy] = adcc::hvp(sp, adcc::Dual(a, vx), adcc::Dual(b, vy));
    auto [gxp, gyp] = adcc::gradient(sp, adcc::Active(a + h * vx),
                                     adcc::Active(b + h * vy));
    auto [gxm, gym] = adcc::gradient(sp, adcc::Active(a - h * vx),
                                     adcc::Active(b - h * vy));
    CHECK_CLOSE(sx, (gxp - gxm) / (2 * h), 1e-6);
    CHECK_CLOSE(sy, (gyp - gym) / (2 * h), 1e-6);
    CHECK_CLOSE(sx, 3.0 * (vx - vy), 1e-12);
    CHECK_CLOSE(sy, -3.0 * (vx - vy), 1e-12);
  }

  // forward mode in a over the gradient in x of a lambda that captures a:
  // d/da d/dx (a sin(x) x^2) = 2 x sin x + x^2 cos x
  {
    double xs = 0.8, ta = adcc::forward(slope_in_x, adcc::Dual(1.7, 1.0));
    CHECK_CLOSE(ta, 2 * xs * std::sin(xs) + xs * xs * std::cos(xs), 1e-12);
    CHECK_CLOSE(ta, (slope_in_x(1.7 + h) - slope_in_x(1.7 - h)) / (2 * h),
                1e-7);
  }

  // Active and Dual structs of more than 16 bytes (std::array<double, 3>,
  // a struct of three doubles) and a std::array result, by value
  {
    std::array<double, 3> xa{0.5, 1.5, -0.7};
    Frame fr{{0.3, -1.2}, 0.4};
    double c = 2.0;
    auto [gx, gf, gc] = adcc::gradient(frameEnergy, adcc::Active(xa),
                                       adcc::Active(fr), adcc::Active(c));
    double k = fr.origin[0] * fr.origin[1] * std::cos(fr.angle);
    CHECK_CLOSE(gx[0], c * xa[1] + std::sin(xa[2]), 1e-12);
    CHECK_CLOSE(gx[1], c * xa[0], 1e-12);
    CHECK_CLOSE(gx[2], std::cos(xa[2]) * xa[0] + k, 1e-12);
    CHECK_CLOSE(gf.origin[0], fr.origin[1] * std::cos(fr.angle) * xa[2],
                1e-12);
    CHECK_CLOSE(gf.origin[1], fr.origin[0] * std::cos(fr.angle) * xa[2],
                1e-12);
    CHECK_CLOSE(gf.angle, -fr.origin[0] * fr.origin[1] * std::sin(fr.angle) *
                              xa[2],
                1e-12);
    CHECK_CLOSE(gc, xa[0] * xa[1], 1e-12);
    std::array<double, 3> xp = xa, xm = xa;
    xp[2] += h, xm[2] -= h;
    CHECK_CLOSE(gx[2],
                (frameEnergy(xp, fr, c) - frameEnergy(xm, fr, c)) / (2 * h),
                1e-7);
    // forward against reverse: the tangent in the direction of x[2]
    double t = adcc::forward(
        frameEnergy, adcc::Dual(xa, std::array<double, 3>{0, 0, 1}),
        adcc::Const(fr), adcc::Const(c));
    CHECK_CLOSE(t, gx[2], 1e-12);
    // a std::array result: its tangent, in t and in p[2]
    auto dt = adcc::forward(curve, adcc::Dual(0.3, 1.0), adcc::Const(xa));
    CHECK_CLOSE(dt[0], xa[0], 1e-12);
    CHECK_CLOSE(dt[1], std::cos(0.3) * xa[1], 1e-12);
    CHECK_CLOSE(dt[2], xa[2] * xa[2], 1e-12);
    auto dp = adcc::forward(curve, adcc::Dual(0.3, 0.0),
                            adcc::Dual(xa, std::array<double, 3>{0, 0, 1}));
    CHECK_CLOSE(dp[0], 0, 1e-12);
    CHECK_CLOSE(dp[2], 2 * xa[2] * 0.3, 1e-12);
    // hvp with respect to a std::array and a scalar, a captured constant
    // and a Const pointer: against the analytic Hessian and against central
    // differences of gradients along the direction
    {
      double kk = 3.0;
      const double w1[1] = {2.0};
      auto g = [kk](std::array<double, 2> y, const double *ww, double t) {
        return kk * y[0] * y[0] * y[1] * t + ww[0] * y[1] * y[1] + t * t * y[0];
      };
      std::array<double, 2> y{0.5, -1.5}, vy{1.0, 2.0};
      double t0 = 0.7, vt = -0.5;
      auto [hy, ht] = adcc::hvp(g, adcc::Dual(y, vy), adcc::Const(&w1[0]),
                                adcc::Dual(t0, vt));
      double H[3][3] = {{2 * kk * y[1] * t0, 2 * kk * y[0] * t0,
                         2 * kk * y[0] * y[1] + 2 * t0},
                        {2 * kk * y[0] * t0, 2 * w1[0], kk * y[0] * y[0]},
                        {2 * kk * y[0] * y[1] + 2 * t0, kk * y[0] * y[0],
                         2 * y[0]}};
      double d[3] = {vy[0], vy[1], vt}, want[3] = {0, 0, 0};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          want[i] += H[i][j] * d[j];
      CHECK_CLOSE(hy[0], want[0], 1e-12);
      CHECK_CLOSE(hy[1], want[1], 1e-12);
      CHECK_CLOSE(ht, want[2], 1e-12);
      auto at = [&](double e) {
        std::array<double, 2> ye{y[0] + e * vy[0], y[1] + e * vy[1]};
        return adcc::gradient(g, adcc::Active(ye), adcc::Const(&w1[0]),
                              adcc::Active(t0 + e * vt));
      };
      auto [gyp, gtp] = at(h);
      auto [gym, gtm] = at(-h);
      CHECK_CLOSE(hy[0], (gyp[0] - gym[0]) / (2 * h), 1e-6);
      CHECK_CLOSE(hy[1], (gyp[1] - gym[1]) / (2 * h), 1e-6);
      CHECK_CLOSE(ht, (gtp - gtm) / (2 * h), 1e-6);
    }
    // forward over a gradient with respect to an Active std::array
    CHECK_CLOSE(slope_of_array(0.7), 0.49 + std::sin(0.5), 1e-12);
    CHECK_CLOSE(adcc::forward(slope_of_array, adcc::Dual(0.7, 1.0)), 1.4,
                1e-12);
  }

  // Jacobians of std::array results with respect to the Active arguments
  {
    double r = 1.5, t = 0.3;
    auto J = adcc::jacobian(polar, adcc::Active(r), adcc::Active(t));
    CHECK_CLOSE(J[0][0], std::cos(t), 1e-12);
    CHECK_CLOSE(J[0][1], -r * std::sin(t), 1e-12);
    CHECK_CLOSE(J[1][0], std::sin(t), 1e-12);
    CHECK_CLOSE(J[1][1], r * std::cos(t), 1e-12);
    Model m{2.0};
    double a = 0.4, b = -0.7, c = 3.0;
    auto K = adcc::jacobian(m, adcc::Active(a), adcc::Const(c),
                            adcc::Active(b));
    CHECK_CLOSE(K[0][0], b, 1e-12);
    CHECK_CLOSE(K[0][1], a, 1e-12);
    CHECK_CLOSE(K[1][0], 2.0 * std::exp(a) * b, 1e-12);
    CHECK_CLOSE(K[1][1], 2.0 * std::exp(a), 1e-12);
    CHECK_CLOSE(K[2][0], c, 1e-12);
    CHECK_CLOSE(K[2][1], std::cos(b), 1e-12);
    // against central differences of the model
    const double h = 1e-6;
    auto plus = m(a + h, c, b), minus = m(a - h, c, b);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(K[i][0], (plus[i] - minus[i]) / (2 * h), 1e-7);
    auto L = adcc::jacobian(
        [](float x) { return std::array<float, 2>{x * x, 3 * x}; },
        adcc::Active(2.0f));
    CHECK_CLOSE(L[0][0], 4, 1e-6);
    CHECK_CLOSE(L[1][0], 3, 1e-6);
    // with respect to std::arrays (of 3 and of 2 values) and a scalar: one
    // column per value, against central differences. (This found the
    // frontend naming functions over local lambdas' types by mangled names
    // numbered apart from code generation: lit
    // requests/split-values-templates.cpp.)
    auto field = [](std::array<double, 3> x, double k, std::array<double, 2> y,
                    double s) {
      return std::array<double, 2>{k * x[0] * x[1] + s * y[0],
                                   std::sin(x[2]) * x[0] * s + y[1] * y[0]};
    };
    std::array<double, 3> x3{0.5, 1.5, -0.7};
    std::array<double, 2> y2{0.25, -2.0};
    double s = 1.3;
    auto JF = adcc::jacobian(field, adcc::Active(x3), adcc::Const(2.0),
                             adcc::Active(y2), adcc::Active(s));
    static_assert(std::tuple_size_v<decltype(JF)> == 2);
    static_assert(std::tuple_size_v<std::decay_t<decltype(JF[0])>> == 6);
    CHECK_CLOSE(JF[0][0], 2.0 * x3[1], 1e-12);
    CHECK_CLOSE(JF[1][2], std::cos(x3[2]) * x3[0] * s, 1e-12);
    CHECK_CLOSE(JF[1][3], y2[1], 1e-12);
    CHECK_CLOSE(JF[1][4], y2[0], 1e-12);
    CHECK_CLOSE(JF[0][5], y2[0], 1e-12);
    for (int col = 0; col < 6; ++col) {
      auto xp = x3, xm = x3;
      auto yp = y2, ym = y2;
      double sp = s, sm = s;
      if (col < 3)
        xp[col] += h, xm[col] -= h;
      else if (col < 5)
        yp[col - 3] += h, ym[col - 3] -= h;
      else
        sp += h, sm -= h;
      auto fp = field(xp, 2.0, yp, sp), fm = field(xm, 2.0, ym, sm);
      for (int row = 0; row < 2; ++row)
        CHECK_CLOSE(JF[row][col], (fp[row] - fm[row]) / (2 * h), 1e-7);
    }
  }
  return check_finish();
}
