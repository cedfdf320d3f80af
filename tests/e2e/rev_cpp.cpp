// Reverse mode in C++ (adcc++): function and class templates, a class with
// state and methods (through free-function wrappers), operators on a value
// class returning {double, double} in registers, a class instance
// passed by reference with a shadow instance, lambdas (capturing by value
// and by reference, mutable), lambdas in std algorithms, references,
// std::array, a std::vector passed by const reference with a shadow vector,
// new/delete and new[]/delete[] (a linked list).  Closed forms, central
// differences and forward mode.  (std::vector built inside the function:
// rev_cpp_vector.cpp.)
#include "rev_check.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

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
  return horner(c, x) * std::sin(x);
}
template <typename T> T poly_t_d(T x) {
  T p = 1 - 2 * x + T(0.5) * x * x + 3 * x * x * x;
  T dp = -2 + x + 9 * x * x;
  return dp * std::sin(x) + p * std::cos(x);
}
static double poly_d(double x) { return poly_t<double>(x); }
static float poly_f(float x) { return poly_t<float>(x); }

template <typename T, size_t K> struct Poly {
  std::array<T, K> c;
  T operator()(T x) const {
    T r = 0;
    for (size_t i = K; i-- > 0;)
      r = r * x + c[i];
    return r;
  }
};
static double poly_class(const double *c, double x) {
  Poly<double, 3> p{{c[0], c[1], c[2]}};
  return p(x) * p(2 * x);
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
static double g_k = 0.8;
static double spring_arr(const double *p) { return spring_energy(p, g_k); }

// a class instance passed in, its member functions called on it
struct Model {
  double w[3];
  double predict(double x) const { return w[0] + w[1] * x + w[2] * x * x; }
  double loss(const double *xs, const double *ys, int n) const {
    double l = 0;
    for (int i = 0; i < n; ++i) {
      double r = predict(xs[i]) - ys[i];
      l += r * r;
    }
    return l / n;
  }
};
static const double g_xs[4] = {0.0, 0.5, 1.0, 1.5},
                    g_ys[4] = {1.0, 0.2, -0.3, 2.0};
static double model_loss(const Model &m) { return m.loss(g_xs, g_ys, 4); }
static double model_arr(const double *w) {
  Model m{{w[0], w[1], w[2]}};
  return model_loss(m);
}

// --- operators returning {double, double} in registers ---------------------
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
  return 15 * t * t - t * t * std::sin(t) + 2 * t * std::cos(t) + 8 * t * t * t;
}

// --- lambdas -----------------------------------------------------------------
static double with_lambdas(double x, double y) {
  double scale = 3.0;
  auto sq = [](double v) { return v * v; };
  auto lin = [&](double v) { return scale * v + y; };
  auto acc = [=](double v) mutable {
    scale += v;
    return scale * x;
  };
  double a = acc(y);
  return sq(lin(x)) + a + [x] { return std::exp(x); }();
}
static double with_lambdas_arr(const double *v) {
  return with_lambdas(v[0], v[1]);
}
// a lambda applied over an array by a template algorithm
static double lambda_algo(const double *x, int n) {
  std::array<double, 5> a{};
  std::copy(x, x + n, a.begin());
  std::transform(a.begin(), a.end(), a.begin(),
                 [](double v) { return std::sin(v) * v; });
  return std::accumulate(a.begin(), a.end(), 0.0,
                         [](double s, double v) { return s + v * v; });
}
static double lambda_algo_arr(const double *x) { return lambda_algo(x, 5); }

// --- std::array by reference
// --------------------------------------------------
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
static double g_theta = 0.3;
static double arr_arr(const double *x) {
  std::array<double, 4> a{x[0], x[1], x[2], x[3]};
  return arr_fn(a, g_theta);
}

// --- std::vector ------------------------------------------------------------
static double vref(const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i + 1 < v.size(); ++i)
    s += v[i] * std::exp(-v[i + 1]);
  return s + *std::max_element(v.begin(), v.end());
}
static double vref_arr(const double *x) {
  std::vector<double> v(x, x + 5);
  return vref(v);
}
// --- new / delete
// -------------------------------------------------------------
struct Node {
  double v;
  Node *next;
};
static double list_fn(const double *x, int n) {
  Node *head = nullptr;
  for (int i = 0; i < n; ++i)
    head = new Node{x[i] * x[i], head};
  double *buf = new double[n];
  int k = 0;
  for (Node *p = head; p; p = p->next)
    buf[k++] = p->v;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * (i + 1);
  delete[] buf;
  while (head) {
    Node *t = head->next;
    delete head;
    head = t;
  }
  return s;
}
static double list_arr(const double *x) { return list_fn(x, 5); }

int main() {
  const double xs[] = {-1.3, -0.2, 0.6, 1.7};
  for (double x : xs) {
    CHECK_TANGENT(__enzyme_autodiff((void *)poly_d, x), poly_t_d(x), poly_d, x);
    CHECK_CLOSE(__enzyme_autodiff((void *)poly_d, x),
                __enzyme_fwddiff((void *)poly_d, x, 1.0), REV_TOL_DOT);
    CHECK_TANGENT(__enzyme_autodiff((void *)v2_fn, x), v2_fn_d(x), v2_fn, x);
    float xf = (float)x;
    CHECK_CLOSE(__enzyme_autodiff_f((void *)poly_f, xf), poly_t_d((double)xf),
                1e-5);
  }
  double x5[5] = {0.3, -0.8, 1.2, 0.5, -0.1};
  {
    double c[3] = {0.5, -1.0, 0.25}, dc[3] = {0};
    double dx = __enzyme_autodiff((void *)poly_class, c, dc, 0.7);
    double x = 0.7, p1 = c[0] + c[1] * x + c[2] * x * x,
           p2 = c[0] + c[1] * 2 * x + c[2] * 4 * x * x;
    CHECK_CLOSE(dc[0], p2 + p1, REV_TOL_EXACT);
    CHECK_CLOSE(dc[1], x * p2 + 2 * x * p1, REV_TOL_EXACT);
    CHECK_CLOSE(dc[2], x * x * p2 + 4 * x * x * p1, REV_TOL_EXACT);
    double vc[3];
    double s = rev_dir(dc, vc, 3) - 0.6 * dx;
    CHECK_CLOSE(s, __enzyme_fwddiff((void *)poly_class, c, vc, 0.7, -0.6),
                REV_TOL_DOT);
    CHECK_CLOSE(dx, (c[1] + 2 * c[2] * x) * p2 + p1 * (2 * c[1] + 8 * c[2] * x),
                REV_TOL_EXACT);
  }
  {
    double p[6] = {0.1, 0.2, -0.3, 1.4, -0.5, 0.9}, dp[6] = {0};
    double dk = __enzyme_autodiff((void *)spring_energy, p, dp, g_k);
    double L = 0;
    for (int i = 0; i < 3; ++i)
      L += (p[i] - p[i + 3]) * (p[i] - p[i + 3]);
    L = std::sqrt(L);
    double e[6];
    for (int i = 0; i < 3; ++i) {
      e[i] = 2 * g_k * (L - 1.5) * (p[i] - p[i + 3]) / L;
      e[i + 3] = -e[i];
    }
    CHECK_GRAD(spring_arr, p, 6, dp, e);
    CHECK_CLOSE(dk, (L - 1.5) * (L - 1.5), REV_TOL_EXACT);
    double v[6];
    double s = rev_dir(dp, v, 6) + 0.3 * dk;
    CHECK_CLOSE(s, __enzyme_fwddiff((void *)spring_energy, p, v, g_k, 0.3),
                REV_TOL_DOT);
  }
  {
    Model m{{0.2, -0.7, 1.1}}, dm{{0, 0, 0}};
    __enzyme_autodiff((void *)model_loss, &m, &dm);
    double w[3] = {m.w[0], m.w[1], m.w[2]}, e[3] = {0, 0, 0};
    for (int i = 0; i < 4; ++i) {
      double r = m.predict(g_xs[i]) - g_ys[i];
      e[0] += 2 * r / 4;
      e[1] += 2 * r * g_xs[i] / 4;
      e[2] += 2 * r * g_xs[i] * g_xs[i] / 4;
    }
    CHECK_GRAD(model_arr, w, 3, dm.w, e);
    Model vm{{0.4, -1.2, 0.9}};
    CHECK_CLOSE(0.4 * dm.w[0] - 1.2 * dm.w[1] + 0.9 * dm.w[2],
                __enzyme_fwddiff((void *)model_loss, &m, &vm), REV_TOL_DOT);
  }
  {
    double v[2] = {0.9, -0.4};
    rev_two t = __enzyme_autodiff2((void *)with_lambdas, v[0], v[1]);
    double g[2] = {t.a, t.b};
    double e[2] = {2 * (3 * v[0] + v[1]) * 3 + (3 + v[1]) + std::exp(v[0]),
                   2 * (3 * v[0] + v[1]) + v[0]};
    CHECK_GRAD(with_lambdas_arr, v, 2, g, e);
    CHECK_CLOSE(0.5 * g[0] + 1.5 * g[1],
                __enzyme_fwddiff((void *)with_lambdas, v[0], 0.5, v[1], 1.5),
                REV_TOL_DOT);
  }
  {
    double dx[5] = {0}, e[5];
    __enzyme_autodiff((void *)lambda_algo, x5, dx, 5);
    for (int i = 0; i < 5; ++i) {
      double s = std::sin(x5[i]) * x5[i];
      e[i] = 2 * s * (std::cos(x5[i]) * x5[i] + std::sin(x5[i]));
    }
    CHECK_GRAD(lambda_algo_arr, x5, 5, dx, e);
    double v[5];
    rev_dir(dx, v, 5);
    CHECK_DOT(dx, v, 5, __enzyme_fwddiff((void *)lambda_algo, x5, v, 5));
  }
  {
    std::array<double, 4> a{0.5, -1.0, 2.0, 0.7}, da{};
    double dth = __enzyme_autodiff((void *)arr_fn, &a, &da, g_theta);
    double xa[4] = {a[0], a[1], a[2], a[3]};
    CHECK_GRAD(arr_arr, xa, 4, da.data(), nullptr);
    double c = std::cos(g_theta), s = std::sin(g_theta);
    CHECK_CLOSE(dth,
                (-s * a[0] - c * a[1]) * a[2] + (c * a[0] - s * a[1]) * a[3],
                REV_TOL_EXACT);
  }
  {
    std::vector<double> v(x5, x5 + 5), dv(5, 0.0);
    __enzyme_autodiff((void *)vref, &v, &dv);
    CHECK_GRAD(vref_arr, x5, 5, dv.data(), nullptr);
    std::vector<double> t(5);
    rev_dir(dv.data(), t.data(), 5);
    CHECK_DOT(dv.data(), t.data(), 5, __enzyme_fwddiff((void *)vref, &v, &t));
  }
  {
    double dx[5] = {0}, e[5];
    __enzyme_autodiff((void *)list_fn, x5, dx, 5);
    for (int i = 0; i < 5; ++i) /* buf[k] = x[n-1-k]^2 */
      e[i] = 2 * x5[i] * (5 - i);
    CHECK_GRAD(list_arr, x5, 5, dx, e);
    double v[5];
    rev_dir(dx, v, 5);
    CHECK_DOT(dx, v, 5, __enzyme_fwddiff((void *)list_fn, x5, v, 5));
  }
  return check_finish();
}
