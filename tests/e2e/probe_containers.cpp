// Idiom corpus, C++ containers as application code fills them: a
// std::vector<std::vector<double>> grown row by row and resized, a
// std::array returned by value and passed back in, a struct holding a
// std::vector copied, moved and kept in a vector of structs, a
// std::vector<std::pair<double, int>> sorted (keys with derivatives,
// indices without) and summed into a std::map<int, double> walked by
// std::accumulate, a recursive std::function lambda, assert, a
// std::to_string message, std::pow with an integer exponent, std::abs and
// std::max(0.0, x). Both modes, central differences (probe_check.h).
// (2026-12-06: the pairs' copies were refused at -O1 and -O2, "a copy of
// an array of structs that mix floating-point and other fields, whose
// element size is unknown": the int read at a variable index made an
// "integers in every element" entry that hid the known 16-byte stride.)
#include "probe_check.h"
#include <array>
#include <cassert>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>
static double f_nested(const double *x) {
  std::vector<std::vector<double>> m;
  for (int i = 0; i < 3; ++i) {
    std::vector<double> row;
    for (int j = 0; j < 3; ++j) row.push_back(x[i * 3 + j] * (1 + i));
    m.push_back(row);
  }
  m[1].resize(5, x[0]);
  double s = 0;
  for (auto &r : m) for (double v : r) s += v * v;
  return s;
}
static std::array<double, 3> rot(std::array<double, 3> v, double a) {
  return {std::cos(a) * v[0] - std::sin(a) * v[1], std::sin(a) * v[0] + std::cos(a) * v[1], v[2]};
}
static double f_array_ret(const double *x) {
  auto r = rot({x[0], x[1], x[2]}, x[3]);
  r = rot(r, 0.5 * x[3]);
  return r[0] * r[1] + r[2];
}
struct Body { std::vector<double> q; double m; };
static double f_vec_member(const double *x) {
  Body a{{x[0], x[1], x[2]}, x[3]};
  Body b = a;
  b.q[1] *= 2;
  Body c = std::move(b);
  std::vector<Body> bodies{a, c};
  double s = 0;
  for (const Body &bd : bodies) s += bd.m * std::inner_product(bd.q.begin(), bd.q.end(), bd.q.begin(), 0.0);
  return s;
}
static double f_pairs(const double *x) {
  std::vector<std::pair<double, int>> v;
  for (int i = 0; i < 5; ++i) v.push_back({x[i] * x[i], i});
  std::sort(v.begin(), v.end());
  auto lo = std::min(v[1], v[2]);
  std::map<int, double> mm;
  for (auto &p : v) mm[p.second] += p.first;
  double acc = std::accumulate(mm.begin(), mm.end(), 0.0, [](double s, const auto &kv) { return s + kv.second * (kv.first + 1); });
  return v[0].first * 3 + v[4].first + lo.first + acc;
}
static double f_misc(const double *x) {
  std::function<double(int)> rec = [&](int k) -> double { return k == 0 ? x[0] : x[k % 3] * rec(k - 1); };
  double r = rec(4);
  assert(r == r);
  std::string msg = "value " + std::to_string(x[1]);
  double p = std::pow(x[1], 2) + std::abs(x[2]) + std::max(0.0, x[1]) + std::exp(x[0]);
  return r + p + (msg.size() > 3 ? 1.0 : 0.0) * x[2];
}
int main() {
  PROBE(f_nested, 9, 0.3, -0.4, 0.9, 1.2, 0.5, -0.7, 0.25, 1.5, 0.1);
  PROBE(f_array_ret, 4, 0.3, -0.4, 0.9, 1.2);
  PROBE(f_vec_member, 4, 0.3, -0.4, 0.9, 1.2);
  PROBE(f_pairs, 5, 0.3, -0.45, 0.9, 1.2, 0.55);
  PROBE(f_misc, 3, 0.3, -0.4, 0.9);
  return check_finish();
}
