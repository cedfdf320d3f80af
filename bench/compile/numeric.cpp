// numeric.cpp: C++ compile-time benchmark input for compile-speed.sh.
//
// Typical modern C++ numerics: class templates over the scalar type, small
// fixed-size vectors and matrices on std::array, std::vector storage,
// lambdas passed to generic algorithms, an RK4 integrator over a state
// template, and <algorithm>/<numeric>/<cmath> from the standard library, so
// that header parsing and template instantiation weigh as they do in real
// code. Builds into a program printing a checksum:
//
//     clang++ -O2 numeric.cpp -o numeric-cxx && ./numeric-cxx
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

namespace num {

template <typename T, std::size_t N> struct Vec {
  std::array<T, N> v{};
  T &operator[](std::size_t i) { return v[i]; }
  const T &operator[](std::size_t i) const { return v[i]; }
  Vec &operator+=(const Vec &o) {
    for (std::size_t i = 0; i < N; ++i) v[i] += o.v[i];
    return *this;
  }
  friend Vec operator+(Vec a, const Vec &b) { return a += b; }
  friend Vec operator*(T s, Vec a) {
    for (auto &x : a.v) x *= s;
    return a;
  }
  T dot(const Vec &o) const {
    return std::inner_product(v.begin(), v.end(), o.v.begin(), T(0));
  }
  T norm() const { return std::sqrt(dot(*this)); }
};

template <typename T, std::size_t N> struct Mat {
  std::array<T, N * N> a{};
  T &operator()(std::size_t i, std::size_t j) { return a[i * N + j]; }
  const T &operator()(std::size_t i, std::size_t j) const { return a[i * N + j]; }
  static Mat identity() {
    Mat m;
    for (std::size_t i = 0; i < N; ++i) m(i, i) = T(1);
    return m;
  }
  Vec<T, N> operator*(const Vec<T, N> &x) const {
    Vec<T, N> y;
    for (std::size_t i = 0; i < N; ++i) {
      T s = 0;
      for (std::size_t j = 0; j < N; ++j) s += (*this)(i, j) * x[j];
      y[i] = s;
    }
    return y;
  }
  Mat operator*(const Mat &b) const {
    Mat c;
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t k = 0; k < N; ++k)
        for (std::size_t j = 0; j < N; ++j) c(i, j) += (*this)(i, k) * b(k, j);
    return c;
  }
  Mat transpose() const {
    Mat t;
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) t(j, i) = (*this)(i, j);
    return t;
  }
};

// Solve A x = b by Gaussian elimination with partial pivoting (copies).
template <typename T, std::size_t N>
Vec<T, N> solve(Mat<T, N> A, Vec<T, N> b) {
  for (std::size_t k = 0; k < N; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < N; ++i)
      if (std::abs(A(i, k)) > std::abs(A(p, k))) p = i;
    if (p != k) {
      for (std::size_t j = 0; j < N; ++j) std::swap(A(k, j), A(p, j));
      std::swap(b[k], b[p]);
    }
    for (std::size_t i = k + 1; i < N; ++i) {
      T l = A(i, k) / A(k, k);
      for (std::size_t j = k; j < N; ++j) A(i, j) -= l * A(k, j);
      b[i] -= l * b[k];
    }
  }
  Vec<T, N> x;
  for (std::size_t i = N; i-- > 0;) {
    T s = b[i];
    for (std::size_t j = i + 1; j < N; ++j) s -= A(i, j) * x[j];
    x[i] = s / A(i, i);
  }
  return x;
}

// Generic RK4 over any state type supporting + and scalar *.
template <typename State, typename Rhs>
State rk4(Rhs &&f, State y, double t0, double t1, int steps) {
  const double h = (t1 - t0) / steps;
  double t = t0;
  for (int s = 0; s < steps; ++s) {
    State k1 = f(t, y);
    State k2 = f(t + h / 2, y + (h / 2) * k1);
    State k3 = f(t + h / 2, y + (h / 2) * k2);
    State k4 = f(t + h, y + h * k3);
    y = y + (h / 6) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    t += h;
  }
  return y;
}

// 1-D field on std::vector with a few stencil operations.
class Field {
public:
  explicit Field(std::size_t n, double dx) : u_(n, 0.0), dx_(dx) {}
  std::size_t size() const { return u_.size(); }
  double &operator[](std::size_t i) { return u_[i]; }
  double operator[](std::size_t i) const { return u_[i]; }

  template <typename F> void fill(F &&f) {
    for (std::size_t i = 0; i < u_.size(); ++i) u_[i] = f(i * dx_);
  }
  // Explicit diffusion step, periodic boundary.
  void diffuse(double nu, double dt) {
    std::vector<double> next(u_.size());
    const std::size_t n = u_.size();
    const double c = nu * dt / (dx_ * dx_);
    for (std::size_t i = 0; i < n; ++i) {
      double l = u_[(i + n - 1) % n], r = u_[(i + 1) % n];
      next[i] = u_[i] + c * (l - 2.0 * u_[i] + r);
    }
    u_.swap(next);
  }
  double energy() const {
    return 0.5 * dx_ *
           std::transform_reduce(u_.begin(), u_.end(), 0.0, std::plus<>(),
                                 [](double x) { return x * x; });
  }
  double max_abs() const {
    auto it = std::max_element(u_.begin(), u_.end(), [](double a, double b) {
      return std::abs(a) < std::abs(b);
    });
    return it == u_.end() ? 0.0 : std::abs(*it);
  }

private:
  std::vector<double> u_;
  double dx_;
};

template <typename T> T log_sum_exp(const std::vector<T> &x) {
  T m = *std::max_element(x.begin(), x.end());
  T s = std::accumulate(x.begin(), x.end(), T(0),
                        [m](T acc, T v) { return acc + std::exp(v - m); });
  return m + std::log(s);
}

template <typename T>
T gaussian_nll(const std::vector<T> &data, T mu, T log_sigma) {
  const T inv = std::exp(-log_sigma);
  T acc = 0;
  for (T x : data) {
    T z = (x - mu) * inv;
    acc += T(0.5) * z * z + log_sigma + T(0.5) * std::log(T(2) * T(M_PI));
  }
  return acc;
}

} // namespace num

int main() {
  using V3 = num::Vec<double, 3>;
  using M4 = num::Mat<double, 4>;
  double checksum = 0.0;

  // Lorenz system through the generic integrator.
  auto lorenz = [](double, const V3 &y) {
    V3 d;
    d[0] = 10.0 * (y[1] - y[0]);
    d[1] = y[0] * (28.0 - y[2]) - y[1];
    d[2] = y[0] * y[1] - 8.0 / 3.0 * y[2];
    return d;
  };
  V3 y0;
  y0[0] = y0[1] = y0[2] = 1.0;
  checksum += num::rk4(lorenz, y0, 0.0, 0.5, 500).norm();

  // Small dense solve with an SPD matrix.
  M4 m;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) m(i, j) = std::cos(0.3 * (i * 4 + j));
  M4 spd = m * m.transpose();
  for (std::size_t i = 0; i < 4; ++i) spd(i, i) += 4.0;
  num::Vec<double, 4> b;
  for (std::size_t i = 0; i < 4; ++i) b[i] = 1.0 + i;
  auto x = num::solve(spd, b);
  checksum += x.norm() + (spd * x).dot(b);

  // Diffusion of a bump.
  num::Field f(256, 1.0 / 256);
  f.fill([](double s) { return std::exp(-100.0 * (s - 0.5) * (s - 0.5)); });
  for (int s = 0; s < 100; ++s) f.diffuse(0.01, 1e-4);
  checksum += f.energy() + f.max_abs();

  // Statistics.
  std::vector<double> data(512);
  std::iota(data.begin(), data.end(), 0.0);
  std::transform(data.begin(), data.end(), data.begin(),
                 [](double i) { return std::sin(0.05 * i) + 0.1 * std::cos(i); });
  std::vector<float> dataf(data.begin(), data.end());
  checksum += num::log_sum_exp(data) + num::gaussian_nll(data, 0.1, -0.2);
  checksum += static_cast<double>(num::gaussian_nll(dataf, 0.1f, -0.2f));

  std::printf("checksum = %.10g\n", checksum);
  return 0;
}
