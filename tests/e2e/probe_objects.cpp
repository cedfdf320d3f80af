// Idiom corpus, object-oriented C++ as simulation codes write it: an
// abstract force-field base class with derived terms held in a
// std::vector<std::unique_ptr<Base>> and called virtually, a
// std::function member set from a capturing lambda, std::variant shapes
// visited with std::visit, std::optional results, a CRTP expression of a
// small vector type with overloaded operators, std::complex arithmetic
// (abs, arg, exp, pow), std::valarray expressions, a std::tuple returned
// and unpacked with structured bindings, a lambda that accumulates into a
// captured reference, std::sort of records by a key whose values carry
// derivatives, std::nth_element for a median, a std::priority_queue of the
// largest terms, a std::unordered_map<std::string, double> of parameters
// one of which is active, built from an initializer list, records of a
// std::string and doubles copied (the string's characters copied by
// char_traits<char>, inlined: refused at -O1 and up until 2026-12-06), and
// a std::shared_ptr to a shared state.
// Both modes, central differences (probe_check.h).
#include "probe_check.h"

#include <algorithm>
#include <complex>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <valarray>
#include <variant>
#include <vector>

// --- virtual dispatch over owned terms ------------------------------------
struct Term {
  virtual ~Term() = default;
  virtual double energy(const double *q) const = 0;
};
struct Spring : Term {
  int i, j;
  double k, rest;
  Spring(int i, int j, double k, double rest) : i(i), j(j), k(k), rest(rest) {}
  double energy(const double *q) const override {
    double d = q[i] - q[j] - rest;
    return 0.5 * k * d * d;
  }
};
struct Morse : Term {
  int i, j;
  double depth, width;
  Morse(int i, int j, double depth, double width)
      : i(i), j(j), depth(depth), width(width) {}
  double energy(const double *q) const override {
    double e = 1 - std::exp(-width * (q[i] - q[j]));
    return depth * e * e;
  }
};
struct Field : Term {
  double strength;
  explicit Field(double s) : strength(s) {}
  double energy(const double *q) const override {
    return strength * std::sin(q[0]) * q[3];
  }
};
static double f_virtual(const double *x) {
  std::vector<std::unique_ptr<Term>> terms;
  terms.push_back(std::make_unique<Spring>(0, 1, 2.0, 0.5));
  terms.push_back(std::make_unique<Morse>(1, 2, 1.5, 0.7));
  terms.push_back(std::make_unique<Spring>(2, 3, 0.5, -0.2));
  terms.push_back(std::make_unique<Field>(0.8));
  double e = 0;
  for (const auto &t : terms)
    e += t->energy(x);
  return e;
}

// --- std::function member from a capturing lambda --------------------------
struct Integrator {
  std::function<double(double, double)> rhs;
  double run(double y, double t1, int steps) const {
    double h = t1 / steps, t = 0;
    for (int s = 0; s < steps; ++s, t += h) {
      double k1 = rhs(t, y), k2 = rhs(t + h, y + h * k1);
      y += 0.5 * h * (k1 + k2);
    }
    return y;
  }
};
static double f_function(const double *x) {
  double rate = x[1], forcing = x[2];
  Integrator in;
  in.rhs = [&](double t, double y) { return -rate * y + forcing * std::cos(t); };
  return in.run(x[0], 1.0, 20);
}

// --- std::variant visited, std::optional --------------------------------
struct Circle {
  double r;
};
struct Rect {
  double w, h;
};
struct Tri {
  double a, b, c;
};
using Shape = std::variant<Circle, Rect, Tri>;
static double area(const Shape &s) {
  return std::visit(
      [](const auto &v) -> double {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Circle>)
          return M_PI * v.r * v.r;
        else if constexpr (std::is_same_v<T, Rect>)
          return v.w * v.h;
        else {
          double p = 0.5 * (v.a + v.b + v.c);
          return std::sqrt(p * (p - v.a) * (p - v.b) * (p - v.c));
        }
      },
      s);
}
static std::optional<double> positive_root(double a, double b, double c) {
  double disc = b * b - 4 * a * c;
  if (disc < 0)
    return std::nullopt;
  return (-b + std::sqrt(disc)) / (2 * a);
}
static double f_variant(const double *x) {
  const Shape shapes[] = {Circle{x[0]}, Rect{x[1], x[2]}, Tri{x[3], x[4], x[5]}};
  double total = 0;
  for (const Shape &s : shapes)
    total += area(s);
  std::optional<double> r = positive_root(1.0, x[0], -x[1]);
  std::optional<double> none = positive_root(1.0, 0.0, 1.0 + x[2] * x[2]);
  return total + r.value_or(0.0) * 3 + none.value_or(-1.0);
}

// --- CRTP vectors with overloaded operators ------------------------------
template <class D> struct VecBase {
  const D &self() const { return static_cast<const D &>(*this); }
  double norm2() const {
    const D &d = self();
    return d.x * d.x + d.y * d.y + d.z * d.z;
  }
};
struct Vec3 : VecBase<Vec3> {
  double x, y, z;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
};
static Vec3 cross(const Vec3 &a, const Vec3 &b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static double f_crtp(const double *x) {
  Vec3 a(x[0], x[1], x[2]), b(x[3], x[4], x[5]);
  Vec3 c = cross(a, b) * 0.5 + (a - b);
  c += a * x[6];
  return c.norm2() + std::sqrt(cross(c, b).norm2());
}

// --- std::complex -----------------------------------------------------
static double f_complex(const double *x) {
  std::complex<double> z(x[0], x[1]), w(x[2], x[3]);
  std::complex<double> p = z * w + std::exp(z) / (w + 2.0);
  std::complex<double> q = std::pow(z, 2.5) + std::conj(w) * std::sqrt(w);
  return std::abs(p) + std::arg(q) + std::norm(z - w) + std::real(p * q);
}

// --- std::valarray ----------------------------------------------------
static double f_valarray(const double *x) {
  std::valarray<double> a(x, 4), b(x + 4, 4);
  std::valarray<double> c = a * b + std::sin(a) - 0.5 * b * b;
  std::valarray<double> d = std::exp(c * 0.1);
  return d.sum() + c.max() * a.min() + (a * a).sum();
}

// --- tuple, structured bindings, captured accumulators --------------------
static std::tuple<double, double, int> moments(const std::vector<double> &v) {
  double m = 0, s = 0;
  for (double e : v)
    m += e;
  m /= v.size();
  for (double e : v)
    s += (e - m) * (e - m);
  return {m, s / (v.size() - 1), (int)v.size()};
}
static double f_tuple(const double *x) {
  std::vector<double> v(x, x + 6);
  auto [mean, var, n] = moments(v);
  double acc = 0;
  auto add = [&acc](double e) { acc += e * e * e; };
  std::for_each(v.begin(), v.end(), add);
  return mean * var * n + acc;
}

// --- sorting records whose keys carry derivatives ------------------------
struct Record {
  double key, weight;
  int id;
};
static double f_sort_records(const double *x) {
  std::vector<Record> rs;
  for (int i = 0; i < 6; ++i)
    rs.push_back({x[i] * x[i] - x[(i + 1) % 6], x[i], i});
  std::sort(rs.begin(), rs.end(),
            [](const Record &a, const Record &b) { return a.key < b.key; });
  double s = 0;
  for (int i = 0; i < 6; ++i)
    s += (i + 1) * rs[i].key + rs[i].weight * rs[i].id;
  return s;
}
static double f_median_heap(const double *x) {
  std::vector<double> v(x, x + 7);
  for (double &e : v)
    e = e * e + 0.1 * e;
  std::nth_element(v.begin(), v.begin() + 3, v.end());
  double median = v[3];
  std::priority_queue<double> heap(x, x + 7);
  double top2 = heap.top();
  heap.pop();
  top2 += 2 * heap.top();
  return median * 3 + top2;
}

// --- parameters by name, shared state -------------------------------------
struct State {
  std::vector<double> u;
  double scale;
};
static double f_named(const double *x) {
  std::unordered_map<std::string, double> params{
      {"alpha", 0.75}, {"beta", x[0]}, {"gamma", 2.0}};
  params["delta"] = x[1] * params.at("gamma");
  auto state = std::make_shared<State>();
  state->u.assign(x + 2, x + 5);
  state->scale = params["beta"];
  std::shared_ptr<State> view = state;
  double s = 0;
  for (double e : view->u)
    s += params["alpha"] * e * e + params["delta"] * e;
  return s * view->scale;
}

// --- named records copied (a std::string beside doubles) -----------------
struct Named {
  std::string name;
  double value, weight;
};
static double f_named_records(const double *x) {
  std::vector<Named> rs;
  rs.push_back({"first", x[0], 1.5});
  rs.push_back({"a longer name than the local buffer holds", x[1], x[2]});
  Named copy = rs[1];
  copy.value *= x[0];
  rs.push_back(copy);
  double s = 0;
  for (const Named &r : rs)
    s += r.value * r.weight * (r.name.size() > 10 ? 2.0 : 1.0);
  return s;
}

int main() {
  PROBE(f_virtual, 4, 0.3, -0.4, 0.9, 1.2);
  PROBE(f_function, 3, 1.1, 0.7, 0.4);
  PROBE(f_variant, 6, 0.6, 1.3, 0.8, 3.0, 4.0, 5.5);
  PROBE(f_crtp, 7, 0.3, -0.4, 0.9, 1.2, 0.5, -0.7, 0.25);
  PROBE(f_complex, 4, 0.7, 0.4, -0.3, 1.1);
  PROBE(f_valarray, 8, 0.3, -0.4, 0.9, 1.2, 0.5, -0.7, 0.25, 1.5);
  PROBE(f_tuple, 6, 0.3, -0.4, 0.9, 1.2, 0.5, -0.7);
  PROBE(f_sort_records, 6, 0.3, -0.4, 0.9, 1.2, 0.5, -0.7);
  PROBE(f_median_heap, 7, 0.3, -0.45, 0.9, 1.2, 0.55, -0.7, 0.1);
  PROBE(f_named, 5, 0.3, -0.4, 0.9, 1.2, 0.5);
  PROBE(f_named_records, 3, 0.3, -0.4, 0.9);
  return check_finish();
}
