// series.hpp - small generic helpers over std::vector for the fit demo.
//
// Part of the adcc cmake-project example.
#ifndef EXAMPLE_SERIES_HPP
#define EXAMPLE_SERIES_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace example {

/// n evenly spaced values from first to last, both included (n >= 2).
template <typename T>
std::vector<T> linspace(T first, T last, std::size_t n) {
  std::vector<T> values(n);
  const T step = (last - first) / static_cast<T>(n - 1);
  for (std::size_t i = 0; i < n; ++i)
    values[i] = first + static_cast<T>(i) * step;
  return values;
}

/// f applied to every element.
template <typename T, typename F>
auto map(const std::vector<T> &values, F f) {
  std::vector<decltype(f(values.front()))> result;
  result.reserve(values.size());
  for (const T &v : values)
    result.push_back(f(v));
  return result;
}

/// Central finite difference of f along coordinate k of p.
template <typename T, typename F>
T central_difference(F f, std::vector<T> p, std::size_t k, T h) {
  const T pk = p[k];
  p[k] = pk + h;
  const T up = f(p);
  p[k] = pk - h;
  const T down = f(p);
  return (up - down) / (2 * h);
}

/// Largest |a[i] - b[i]| relative to max(1, |b[i]|).
template <typename T>
T max_relative_error(const std::vector<T> &a, const std::vector<T> &b) {
  T worst = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const T scale = std::max<T>(1, std::abs(b[i]));
    worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
  }
  return worst;
}

} // namespace example

#endif // EXAMPLE_SERIES_HPP
