// Forward mode through std::vector (adcc++): vectors created, filled, grown
// by push_back (reallocation) and destroyed inside the differentiated
// function (invokes and cleanup paths at -O0), a vector passed by const
// reference with a duplicated shadow vector, a vector written through a
// reference, and std algorithms over vectors.
#include "fwd_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

extern "C" void __enzyme_fwddiff_void(void *, ...);

// built from a pointer range, transformed in place, reduced
static double vnorm(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (auto &e : v)
    e = e * e;
  double s = 0;
  for (double e : v)
    s += e;
  return std::sqrt(s);
}

// grows by push_back past its capacity: values move to new storage
static double grow(double x, int n) {
  std::vector<double> v;
  v.push_back(x);
  for (int i = 1; i < n; ++i)
    v.push_back(v.back() * x + 1.0); // p_i = x p_{i-1} + 1
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] / double(i + 1);
  return s;
}
static double grow_d(double x, int n) {
  double p = x, dp = 1, ds = dp;
  for (int i = 1; i < n; ++i) {
    dp = dp * x + p;
    p = p * x + 1.0;
    ds += dp / double(i + 1);
  }
  return ds;
}
static double grow_line(double t) { return grow(t, 20); }

// by const reference: shadow is another vector of the same size
static double cubes(const std::vector<double> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i] * v[i];
  return s;
}

// written through a reference (no reallocation): out[i] = exp(a) x_i^2
static void fill(std::vector<double> &out, const std::vector<double> &x,
                 double a) {
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = std::exp(a) * x[i] * x[i];
}

// algorithms: inner_product, accumulate with a lambda, max_element
static double algos(const double *x, int n) {
  std::vector<double> v(x, x + n), w(n);
  std::transform(v.begin(), v.end(), w.begin(),
                 [](double e) { return std::sin(e); });
  double ip = std::inner_product(v.begin(), v.end(), w.begin(), 0.0);
  double acc = std::accumulate(v.begin(), v.end(), 1.0,
                               [](double a, double b) { return a * (1 + b * b); });
  return ip + acc + *std::max_element(v.begin(), v.end());
}

static double g_x[8], g_dx[8];
static double vnorm_line(double t) {
  double x[8];
  for (int i = 0; i < 8; ++i)
    x[i] = g_x[i] + t * g_dx[i];
  return vnorm(x, 8);
}
static double algos_line(double t) {
  double x[8];
  for (int i = 0; i < 8; ++i)
    x[i] = g_x[i] + t * g_dx[i];
  return algos(x, 8);
}

int main() {
  double x[8], dx[8];
  for (int i = 0; i < 8; ++i) {
    x[i] = g_x[i] = 0.3 * i - 1.1;
    dx[i] = g_dx[i] = 1.0 / (i + 1);
  }
  {
    double s = 0, ds = 0;
    for (int i = 0; i < 8; ++i) {
      s += x[i] * x[i];
      ds += x[i] * dx[i];
    }
    CHECK_TANGENT(__enzyme_fwddiff((void *)vnorm, x, dx, 8), ds / std::sqrt(s),
                  vnorm_line, 0.0);
  }
  for (double t : {-0.9, 0.4, 0.95})
    CHECK_TANGENT(__enzyme_fwddiff((void *)grow, t, 1.0, 20), grow_d(t, 20),
                  grow_line, t);
  {
    std::vector<double> v(x, x + 8), dv(dx, dx + 8);
    double want = 0;
    for (int i = 0; i < 8; ++i)
      want += 3 * x[i] * x[i] * dx[i];
    CHECK_CLOSE(__enzyme_fwddiff((void *)cubes, &v, &dv), want, FWD_TOL_EXACT);
  }
  {
    std::vector<double> out(8), dout(8), xv(x, x + 8), dxv(dx, dx + 8);
    double a = 0.3;
    __enzyme_fwddiff_void((void *)fill, &out, &dout, &xv, &dxv, a, 0.5);
    for (int i = 0; i < 8; ++i) {
      CHECK_CLOSE(out[i], std::exp(a) * x[i] * x[i], FWD_TOL_EXACT);
      CHECK_CLOSE(dout[i],
                  std::exp(a) * (0.5 * x[i] * x[i] + 2 * x[i] * dx[i]),
                  FWD_TOL_EXACT);
    }
  }
  {
    double want = 0, acc = 1, dacc = 0;
    int im = 0;
    for (int i = 0; i < 8; ++i) {
      want += (std::sin(x[i]) + x[i] * std::cos(x[i])) * dx[i];
      dacc = dacc * (1 + x[i] * x[i]) + acc * 2 * x[i] * dx[i];
      acc *= 1 + x[i] * x[i];
      if (x[i] > x[im])
        im = i;
    }
    want += dacc + dx[im];
    CHECK_TANGENT(__enzyme_fwddiff((void *)algos, x, dx, 8), want, algos_line,
                  0.0);
  }
  return check_finish();
}
