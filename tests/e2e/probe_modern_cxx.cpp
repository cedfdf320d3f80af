// Idiom corpus, C++ as it is written since C++17/20: CRTP expression
// templates (a vector class whose operators build expression objects
// holding references), std::span and std::array with std::inner_product,
// std::transform_reduce and structured bindings of std::minmax_element,
// ranges (views::transform, views::reverse, views::iota, ranges::sort),
// fold expressions over a tuple through std::apply, a vector of
// unique_ptr to an abstract base, std::map with structured bindings, and
// lambdas in std::function: captured by value and by reference, copied,
// assigned, kept in a vector built from an initializer list, as a member
// of a struct that is copied. Both modes, central differences
// (probe_check.h), -std=c++20.
//
// Found when written (2026-12-06), SILENT at -O0 in reverse mode: a
// std::function copied (copy constructor, a vector built from
// {f, g}) lost the adjoints of the doubles its lambda captured by value
// (d/dk 0): the manager's clone copies the closure into storage where its
// other paths store pointers, and nothing typed the copy. The closure's
// type is now read from the lambda's members (analysis/SourceTypes.cpp)
// and an inlined callee's pointee marks type such a copy
// (analysis/CopyLayouts.cpp). Copy-assigned (`h = g`) at -O0 the copy
// goes through a swap that nothing types: a located error, then (also
// 2026-12-06) differentiated, the swap's moves marked
// (prepare/ErasedMoves.cpp; e2e rev_std_function_moves.cpp). A closure of doubles and
// integers too large for std::function's own storage (kept on the heap)
// was refused at -O0; its manager's template argument types the clone
// since 2026-12-06 (analysis/ErasedStorage.cpp).
#include "probe_check.h"
#include <array>
#include <span>
#include <numeric>
#include <algorithm>
#include <ranges>
#include <tuple>
#include <functional>
#include <vector>
#include <map>
#include <memory>
#include <cmath>

// CRTP expression templates, as small linear-algebra libraries write them
template <class E> struct Expr {
  double operator[](size_t i) const { return static_cast<const E &>(*this)[i]; }
  size_t size() const { return static_cast<const E &>(*this).size(); }
};
struct Vec : Expr<Vec> {
  std::vector<double> d;
  explicit Vec(size_t n) : d(n) {}
  template <class E> Vec(const Expr<E> &e) : d(e.size()) { for (size_t i = 0; i < d.size(); ++i) d[i] = e[i]; }
  double operator[](size_t i) const { return d[i]; }
  double &operator[](size_t i) { return d[i]; }
  size_t size() const { return d.size(); }
};
template <class A, class B, class Op> struct Bin : Expr<Bin<A, B, Op>> {
  const A &a; const B &b;
  Bin(const A &a, const B &b) : a(a), b(b) {}
  double operator[](size_t i) const { return Op{}(a[i], b[i]); }
  size_t size() const { return a.size(); }
};
template <class A, class B> Bin<A, B, std::plus<>> operator+(const Expr<A> &a, const Expr<B> &b) { return {static_cast<const A &>(a), static_cast<const B &>(b)}; }
template <class A, class B> Bin<A, B, std::multiplies<>> operator*(const Expr<A> &a, const Expr<B> &b) { return {static_cast<const A &>(a), static_cast<const B &>(b)}; }

static double crtp(const double *x) {
  Vec a(4), b(4);
  for (int i = 0; i < 4; ++i) { a[i] = x[i]; b[i] = std::sin(x[3 - i]); }
  Vec c = a * b + a;
  Vec d = c * c + b;
  double s = 0;
  for (size_t i = 0; i < d.size(); ++i) s += d[i];
  return s;
}

static double spans(const double *x) {
  std::array<double, 4> a{};
  std::copy_n(x, 4, a.begin());
  std::span<const double> s(a);
  auto head = s.first(2), tail = s.last(2);
  double r = std::inner_product(head.begin(), head.end(), tail.begin(), 0.0);
  r += std::transform_reduce(s.begin(), s.end(), 0.0, std::plus<>(), [](double v) { return v * v * v; });
  auto [mn, mx] = std::minmax_element(a.begin(), a.end());
  return r + *mx * 2 - *mn;
}

static double ranges(const double *x) {
  std::vector<double> v(x, x + 4);
  auto sq = v | std::views::transform([](double t) { return t * t; });
  double s = 0;
  for (double t : sq | std::views::reverse) s = s * 0.5 + t;
  for (int i : std::views::iota(0, 4)) s += std::exp(v[i] * 0.1 * i);
  std::ranges::sort(v);
  return s + v[0] * v[3];
}

template <class... T> static double sum_all(T... t) { return (t + ...); }
template <class... T> static double prod_all(T... t) { return (t * ... * 1.0); }
static double folds(const double *x) {
  auto t = std::make_tuple(x[0], x[1] * 2, x[2] * x[3]);
  double s = std::apply([](auto... e) { return sum_all(e...) * prod_all(e...); }, t);
  auto [p, q, r] = t;
  return s + p * q / r;
}

struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Circle : Shape { double r; explicit Circle(double r) : r(r) {} double area() const override { return M_PI * r * r; } };
struct Rect : Shape { double w, h; Rect(double w, double h) : w(w), h(h) {} double area() const override { return w * h; } };
static double shapes(const double *x) {
  std::vector<std::unique_ptr<Shape>> v;
  v.push_back(std::make_unique<Circle>(x[0]));
  v.push_back(std::make_unique<Rect>(x[1], x[2]));
  v.emplace_back(new Circle(x[3]));
  double s = 0;
  for (const auto &p : v) s += p->area();
  return s;
}

static double maps(const double *x) {
  std::map<int, double> m;
  for (int i = 0; i < 4; ++i) m[(i * 7) % 5] += x[i] * x[i];
  m[2] += x[0];
  double s = 0;
  for (auto &[k, v] : m) s += k * v + std::sqrt(v + 1);
  return s;
}

static double lambdas(const double *x) {
  double k = x[3];
  auto f = [k](double t) { return std::tanh(k * t); };
  std::function<double(double)> g = [&](double t) { return f(t) * f(t + 1); };
  std::vector<std::function<double(double)>> fs = {f, g, [](double t) { return t * t; }};
  double s = 0;
  for (int i = 0; i < 3; ++i) s += fs[i](x[i]);
  return s;
}

static double copied_mixed(const double *x) {
  double k = x[1]; int n = 3;
  auto f = [k, n](double t) { return k * t * n; };
  std::function<double(double)> g = f;
  std::function<double(double)> h = g;
  return h(x[0]);
}
static double in_vector(const double *x) {
  double k = x[1], m = x[2];
  auto f = [k, m](double t) { return k * t + m * m; };
  std::vector<std::function<double(double)>> fs = {f, f};
  return fs[0](x[0]) * fs[1](x[2]);
}
static double on_heap(const double *x) {
  double k = x[1], m = x[2], q = x[0];
  auto f = [k, m, q](double t) { return k * t + m * q; };
  std::function<double(double)> g = f;
  std::function<double(double)> h = g;
  return h(x[0]);
}
static double on_heap_mixed(const double *x) {
  double k = x[1], m = x[2]; int n = 2; double q = x[0];
  auto f = [k, m, n, q](double t) { return k * t + m * q * n; };
  std::function<double(double)> g = f;
  std::function<double(double)> h = g;
  return h(x[0]);
}
static double by_reference(const double *x) {
  double k = x[1];
  auto f = [&k](double t) { return k * t; };
  std::function<double(double)> g = f;
  std::function<double(double)> h = g;
  return h(x[0]) + h(x[2]);
}
static double assigned(const double *x) {
  double k = x[1];
  std::function<double(double)> g = [k](double t) { return k * t; };
  std::function<double(double)> h;
  h = g;
  return h(x[0]);
}
struct holder { std::function<double(double)> f; double w; };
static double member(const double *x) {
  double k = x[1];
  holder a{[k](double t) { return k * std::sin(t); }, x[2]};
  holder b = a;
  return b.f(x[0]) * b.w;
}
int main() {
  PROBE(crtp, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(spans, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(ranges, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(folds, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(shapes, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(maps, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(lambdas, 4, 0.3, -0.7, 1.1, 0.4);
  PROBE(copied_mixed, 3, 0.3, -0.7, 1.1);
  PROBE(in_vector, 3, 0.3, -0.7, 1.1);
  PROBE(on_heap, 3, 0.3, -0.7, 1.1);
  PROBE(on_heap_mixed, 3, 0.3, -0.7, 1.1);
  PROBE(by_reference, 3, 0.3, -0.7, 1.1);
  PROBE(assigned, 3, 0.3, -0.7, 1.1);
  PROBE(member, 3, 0.3, -0.7, 1.1);
  return check_finish();
}
