// Forward mode in C++ (adcc++): function templates and class templates,
// classes with methods and operators (reached through free-function
// wrappers), lambdas inside the differentiated function, references,
// std::array, std::complex (visible operations) and <cmath> overloads.
#include "fwd_check.h"

#include <array>
#include <cmath>
#include <complex>

extern "C" float __enzyme_fwddiff_f(void *, ...);
extern "C" void __enzyme_fwddiff_void(void *, ...);

// --- templates -------------------------------------------------------------
template <typename T, int K> T horner(const T (&c)[K], T x) {
  T r = 0;
  for (int i = K - 1; i >= 0; --i)
    r = r * x + c[i];
  return r;
}
template <typename T> T poly_t(T x) {
  const T c[4] = {T(1), T(-2), T(0.5), T(3)};
  return horner(c, x) * std::sin(x); // std::sin overload for T
}
template <typename T> T poly_t_d(T x) {
  T p = 1 - 2 * x + T(0.5) * x * x + 3 * x * x * x;
  T dp = -2 + x + 9 * x * x;
  return dp * std::sin(x) + p * std::cos(x);
}

// --- a class with state and methods ----------------------------------------
class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  double length(const double *a, const double *b) const {
    double s = 0;
    for (int i = 0; i < 3; ++i)
      s += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(s);
  }
  double energy(const double *a, const double *b) const {
    double e = length(a, b) - rest_;
    return 0.5 * k_ * e * e;
  }
  void scale(double f) { k_ *= f; }

private:
  double k_, rest_;
};
static double spring_energy(const double *p, double k) {
  Spring s(k, 1.5);
  s.scale(2.0);
  return s.energy(p, p + 3);
}

// --- operators on a small value class --------------------------------------
struct V2 {
  double x, y;
  V2 operator+(const V2 &o) const { return {x + o.x, y + o.y}; }
  V2 operator*(double s) const { return {x * s, y * s}; }
  double dot(const V2 &o) const { return x * o.x + y * o.y; }
};
static double v2_fn(double t) {
  V2 a{t, 2 * t}, b{std::cos(t), t * t};
  V2 c = (a + b) * t;
  return c.dot(a);
}
static double v2_fn_d(double t) {
  // c = t (t + cos t, 2t + t^2), a = (t, 2t)
  // c.a = t^2 (t + cos t) + 2 t^2 (2t + t^2) = t^3 + t^2 cos t + 4t^3 + 2t^4
  return 15 * t * t - t * t * std::sin(t) + 2 * t * std::cos(t) +
         8 * t * t * t;
}

// --- lambdas ----------------------------------------------------------------
static double with_lambdas(double x, double y) {
  double scale = 3.0;
  auto sq = [](double v) { return v * v; };
  auto lin = [&](double v) { return scale * v + y; }; // captures by reference
  auto acc = [=](double v) mutable {
    scale += v; // copy of scale
    return scale * x;
  };
  double a = acc(y);
  return sq(lin(x)) + a + [x] { return std::exp(x); }();
}
static double lambdas_dx(double x, double y) {
  return 2 * (3 * x + y) * 3 + (3 + y) + std::exp(x);
}
static double lambdas_dy(double x, double y) {
  return 2 * (3 * x + y) + x;
}
static double g_ly;
static double lambdas_line(double t) { return with_lambdas(t, g_ly); }

// --- references and std::array --------------------------------------------
static void rotate(std::array<double, 2> &v, const double &theta) {
  double c = std::cos(theta), s = std::sin(theta);
  v = {c * v[0] - s * v[1], s * v[0] + c * v[1]};
}
static double arr_fn(const std::array<double, 4> &a, double theta) {
  std::array<double, 2> v{a[0], a[1]};
  rotate(v, theta);
  double s = 0;
  for (double e : a)
    s += e * e;
  return v[0] * a[2] + v[1] * a[3] + s;
}
static std::array<double, 4> g_arr, g_darr;
static double g_theta;
static double arr_line(double t) {
  std::array<double, 4> a;
  for (int i = 0; i < 4; ++i)
    a[i] = g_arr[i] + t * g_darr[i];
  return arr_fn(a, g_theta);
}

// --- std::complex -----------------------------------------------------------
// Only operations whose code is visible: +, -, scaling, conj, real/imag.
// (complex * complex and / call __muldc3/__divdc3, abs/arg call cabs/carg:
// complex_arith.cpp.)
static double complex_fn(double x) {
  std::complex<double> z(x, 0.5 * x), w(1.0, -x * x);
  std::complex<double> r = (z + w) * x - std::conj(z) * 3.0 + w / 2.0;
  r -= std::complex<double>(0.0, x);
  return r.real() + 2 * r.imag() + std::real(z) * std::imag(w);
}
static double complex_fn_d(double x) {
  // r = ((x + 1) x - 3x + 0.5, (0.5x - x^2) x + 1.5x - 0.5x^2 - x)
  // real(z) imag(w) = -x^3
  double dre = 2 * x + 1 - 3, dim = x - 3 * x * x + 1.5 - x - 1;
  return dre + 2 * dim - 3 * x * x;
}

// --- float template instance -------------------------------------------------
static float poly_f(float x) { return poly_t<float>(x); }
static double poly_d(double x) { return poly_t<double>(x); }

int main() {
  const double xs[] = {-1.3, -0.2, 0.6, 1.7};
  for (double x : xs) {
    CHECK_TANGENT(__enzyme_fwddiff((void *)poly_d, x, 1.0), poly_t_d(x),
                  poly_d, x);
    float xf = (float)x;
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)poly_f, xf, 1.0f),
                poly_t_d((double)xf), 1e-5);
    CHECK_TANGENT(__enzyme_fwddiff((void *)v2_fn, x, 1.0), v2_fn_d(x), v2_fn,
                  x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)complex_fn, x, 1.0),
                  complex_fn_d(x), complex_fn, x);
  }
  // class: d/dp_0 of 0.5 (2k) (|a - b| - r)^2 = 2k (L - r) (a0 - b0) / L
  {
    double p[6] = {0.1, 0.2, -0.3, 1.4, -0.5, 0.9}, dp[6] = {1, 0, 0, 0, 0, 0};
    double k = 0.8, L = 0;
    for (int i = 0; i < 3; ++i)
      L += (p[i] - p[i + 3]) * (p[i] - p[i + 3]);
    L = std::sqrt(L);
    CHECK_CLOSE(__enzyme_fwddiff((void *)spring_energy, p, dp, k, 0.0),
                2 * k * (L - 1.5) * (p[0] - p[3]) / L, FWD_TOL_EXACT);
    double zero[6] = {0};
    CHECK_CLOSE(__enzyme_fwddiff((void *)spring_energy, p, zero, k, 1.0),
                (L - 1.5) * (L - 1.5), FWD_TOL_EXACT);
  }
  // lambdas
  {
    double x = 0.9, y = g_ly = -0.4;
    CHECK_TANGENT(__enzyme_fwddiff((void *)with_lambdas, x, 1.0, y, 0.0),
                  lambdas_dx(x, y), lambdas_line, x);
    CHECK_CLOSE(__enzyme_fwddiff((void *)with_lambdas, x, 0.0, y, 1.0),
                lambdas_dy(x, y), FWD_TOL_EXACT);
  }
  // std::array by reference, theta by value
  {
    std::array<double, 4> a{0.5, -1.0, 2.0, 0.3}, da{1.0, 0.5, -0.5, 2.0};
    double th = g_theta = 0.7;
    g_arr = a;
    g_darr = da;
    double c = std::cos(th), s = std::sin(th);
    double v0 = c * a[0] - s * a[1], v1 = s * a[0] + c * a[1];
    double dv0 = c * da[0] - s * da[1], dv1 = s * da[0] + c * da[1];
    double want = dv0 * a[2] + v0 * da[2] + dv1 * a[3] + v1 * da[3];
    for (int i = 0; i < 4; ++i)
      want += 2 * a[i] * da[i];
    CHECK_TANGENT(__enzyme_fwddiff((void *)arr_fn, &a, &da, th, 0.0), want,
                  arr_line, 0.0);
    std::array<double, 4> zero{};
    CHECK_CLOSE(__enzyme_fwddiff((void *)arr_fn, &a, &zero, th, 1.0),
                (-s * a[0] - c * a[1]) * a[2] + (c * a[0] - s * a[1]) * a[3],
                FWD_TOL_EXACT);
  }
  return check_finish();
}
