// Idiom corpus, the C++ library's containers and type erasure beyond
// std::vector: std::any holding a double and a struct (copied, assigned,
// any_cast), std::deque (push_front/back, pop from both ends),
// std::list (sort, reverse), std::stack and std::queue, a vector of
// vectors, std::array of std::array, an unordered_map of vectors,
// std::multiset ordered by values with derivatives, std::shared_ptr and
// std::weak_ptr::lock. Both modes, central differences (probe_check.h).
//
// Found when written (2026-12-06): SILENT at -O0 in reverse mode, a
// std::any holding a struct (kept on the heap) and copied lost the
// struct's adjoints (gradient 0): its manager clones the object out of
// storage the analysis types as pointers; the manager's template argument
// now types the clone (analysis/ErasedStorage.cpp erasedObjectType; also
// std::function's heap-kept lambdas of doubles and ints, refused before).
// Forward mode refused std::weak_ptr::lock at every level ("the
// instruction 'cmpxchg' is not supported yet": an integer reference count
// taken by compare-and-swap), now left alone as integer stores are.
#include "probe_check.h"
#include <any>
#include <deque>
#include <list>
#include <set>
#include <stack>
#include <queue>
#include <unordered_map>
#include <vector>
#include <array>
#include <numeric>
#include <memory>
#include <cmath>
static double any1(const double *x) {
  std::any a = x[0] * x[1];
  std::any b = a;
  std::any c;
  c = b;
  return std::any_cast<double>(c) * x[0];
}
struct P3 { double a, b, c; };
static double any2(const double *x) {
  std::any a = P3{x[0], x[1], x[0] * x[1]};
  std::any b = a;
  const P3 &p = std::any_cast<const P3 &>(b);
  return p.a * p.b + p.c;
}
static double deq(const double *x) {
  std::deque<double> d;
  for (int i = 0; i < 40; ++i) { d.push_back(x[i % 2] * i); if (i % 3 == 0) d.push_front(x[0] + i); }
  double s = 0;
  while (d.size() > 3) { s += d.front() * d.back(); d.pop_front(); d.pop_back(); }
  return s + std::accumulate(d.begin(), d.end(), 0.0);
}
static double lst(const double *x) {
  std::list<double> l;
  for (int i = 0; i < 10; ++i) l.push_back(std::sin(x[i % 2] * i));
  l.sort();
  l.reverse();
  double s = 0, w = 1;
  for (double v : l) { s += w * v; w *= 0.9; }
  return s;
}
static double adapters(const double *x) {
  std::stack<double> st; std::queue<double> q;
  for (int i = 0; i < 6; ++i) { st.push(x[0] * i); q.push(x[1] + i); }
  double s = 0;
  while (!st.empty()) { s += st.top() * q.front(); st.pop(); q.pop(); }
  return s;
}
static double nested(const double *x) {
  std::vector<std::vector<double>> m(3, std::vector<double>(3));
  for (int i = 0; i < 3; ++i) for (int j = 0; j < 3; ++j) m[i][j] = x[(i + j) % 2] * (i + 1) - j;
  std::array<std::array<double, 3>, 3> a{};
  for (int i = 0; i < 3; ++i) for (int j = 0; j < 3; ++j) a[i][j] = m[j][i] * m[i][j];
  std::unordered_map<int, std::vector<double>> um;
  for (int i = 0; i < 3; ++i) um[i % 2].push_back(a[i][i]);
  double s = 0;
  for (auto &[k, v] : um) for (double t : v) s += t * (k + 1);
  return s;
}
static double sets(const double *x) {
  std::multiset<double> s;
  for (int i = 0; i < 6; ++i) s.insert(x[i % 2] * (i - 2.5));
  double r = 0, w = 1;
  for (double v : s) { r += v * w; w += 1; }
  return r;
}
static double shared(const double *x) {
  auto p = std::make_shared<std::vector<double>>(4, x[0]);
  auto q = p;
  (*q)[2] = x[1] * x[1];
  std::weak_ptr<std::vector<double>> w = p;
  double s = 0;
  if (auto l = w.lock()) for (double v : *l) s += v * v;
  return s;
}
int main() {
  PROBE(any1, 2, 0.3, 0.7);
  PROBE(any2, 2, 0.3, 0.7);
  PROBE(deq, 2, 0.3, 0.7);
  PROBE(lst, 2, 0.3, 0.7);
  PROBE(adapters, 2, 0.3, 0.7);
  PROBE(nested, 2, 0.3, 0.7);
  PROBE(sets, 2, 0.3, 0.7);
  PROBE(shared, 2, 0.3, 0.7);
  return check_finish();
}
