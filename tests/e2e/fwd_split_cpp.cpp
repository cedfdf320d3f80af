// Split forward mode from C++: a function template over a small vector
// class (member functions, a lambda called inside, a loop), a result and
// an output array written through a reference, a class's static member
// function, and a std::vector built inside (calls that may throw: invokes
// at -O0); __enzyme_augmentfwd records, __enzyme_fwdsplit gives the
// tangents later (after the program changed the inputs), checked against
// closed forms, central differences and __enzyme_fwddiff.
#include "fwd_check.h"

#include <cstring>
#include <vector>

extern "C" {
extern int enzyme_nofree;
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void __enzyme_fwdsplit_v(void *, ...);
}

namespace {

template <int N> struct Vec {
  double v[N];
  double dot(const Vec &o) const noexcept {
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += v[i] * o.v[i];
    return s;
  }
  void scale(double a) noexcept {
    for (double &x : v)
      x *= a;
  }
};

// E(p, w) = log(1 + (p.w)^2) + sum_i w_i p_i^3, then p is normalized in
// place by its first component (a write the tangents must not repeat).
template <int N> double energy(Vec<N> &p, const Vec<N> &w) noexcept {
  auto cubes = [&]() noexcept {
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += w.v[i] * p.v[i] * p.v[i] * p.v[i];
    return s;
  };
  double d = p.dot(w);
  double e = std::log(1 + d * d) + cubes();
  p.scale(1 / p.v[0]);
  return e;
}

constexpr int N = 3;
const Vec<N> W = {{0.5, -1.0, 2.0}};
const Vec<N> P0 = {{0.8, 0.3, -0.6}};
const Vec<N> Dir = {{1.0, -2.0, 0.5}};

double energy_line(double t) {
  Vec<N> p;
  for (int i = 0; i < N; ++i)
    p.v[i] = P0.v[i] + t * Dir.v[i];
  return energy(p, W);
}

double energy_tangent() {
  double d = P0.dot(W), t = 0;
  for (int i = 0; i < N; ++i)
    t += (2 * d / (1 + d * d) * W.v[i] +
          3 * W.v[i] * P0.v[i] * P0.v[i]) *
         Dir.v[i];
  return t;
}

struct Spring {
  // out = {k x^2 / 2, k x}; k is a parameter with a tangent too.
  static void eval(const double *x, double k, double *out) noexcept {
    out[0] = 0.5 * k * x[0] * x[0];
    out[1] = k * x[0];
  }
};

// A std::vector built inside (calls that may throw: invokes at -O0).
double sines(const double *x, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i)
    t[i] = std::sin(x[i]) * (i + 1);
  double s = 0;
  for (double v : t)
    s += v * v;
  return s;
}
const double SX[3] = {0.1, 0.7, -0.4}, SD[3] = {1.0, -0.5, 2.0};
double sines_line(double t) {
  double x[3];
  for (int i = 0; i < 3; ++i)
    x[i] = SX[i] + t * SD[i];
  return sines(x, 3);
}
double sines_tangent() {
  double t = 0;
  for (int i = 0; i < 3; ++i)
    t += 2 * (i + 1) * (i + 1) * std::sin(SX[i]) * std::cos(SX[i]) * SD[i];
  return t;
}

} // namespace

int main() {
  // --- the template, its tangent twice from one tape ---
  Vec<N> p = P0, dp{};
  void *tape = __enzyme_augmentfwd((void *)energy<N>, enzyme_dup, &p, &dp,
                                   enzyme_const, &W);
  CHECK_CLOSE(p.v[0], 1.0, FWD_TOL_EXACT); // normalized
  p.v[2] = 42;                             // changed before the tangents
  dp = Dir;
  double t1 = __enzyme_fwdsplit((void *)energy<N>, enzyme_nofree, enzyme_dup,
                                &p, &dp, enzyme_const, &W, tape);
  CHECK_TANGENT(t1, energy_tangent(), energy_line, 0.0);
  CHECK_TRUE(p.v[2] == 42); // the primal's write is not repeated
  dp = Dir;
  dp.scale(3);
  double t3 = __enzyme_fwdsplit((void *)energy<N>, enzyme_dup, &p, &dp,
                                enzyme_const, &W, tape);
  CHECK_CLOSE(t3, 3 * t1, FWD_TOL_EXACT);
  Vec<N> q = P0, dq = Dir;
  double tf = __enzyme_fwddiff((void *)energy<N>, enzyme_dup, &q, &dq,
                               enzyme_const, &W);
  CHECK_CLOSE(t1, tf, FWD_TOL_EXACT);

  // --- a static member function: outputs written through a pointer ---
  double x = 1.5, dx = 0, k = 2.0, out[2] = {0, 0}, dout[2] = {0, 0};
  void *tape2 = __enzyme_augmentfwd((void *)Spring::eval, enzyme_dup, &x, &dx,
                                    k, enzyme_dup, out, dout);
  CHECK_CLOSE(out[0], 0.5 * k * x * x, FWD_TOL_EXACT);
  x = -7; // the tangents are those at x = 1.5
  dx = 1;
  __enzyme_fwdsplit_v((void *)Spring::eval, enzyme_dup, &x, &dx, k, 0.5,
                      enzyme_dup, out, dout, tape2);
  // d out0 = k x dx + x^2 / 2 dk; d out1 = k dx + x dk
  CHECK_CLOSE(dout[0], 2.0 * 1.5 * 1 + 0.5 * 1.5 * 1.5 * 0.5, FWD_TOL_EXACT);
  CHECK_CLOSE(dout[1], 2.0 * 1 + 1.5 * 0.5, FWD_TOL_EXACT);
  CHECK_TRUE(x == -7);

  // --- a std::vector inside ---
  double sx[3], sd[3];
  std::memcpy(sx, SX, sizeof sx);
  std::memcpy(sd, SD, sizeof sd);
  void *tape3 = __enzyme_augmentfwd((void *)sines, enzyme_dup, sx, sd,
                                    enzyme_const, 3);
  sx[1] = 9;
  double ts = __enzyme_fwdsplit((void *)sines, enzyme_dup, sx, sd,
                                enzyme_const, 3, tape3);
  CHECK_TANGENT(ts, sines_tangent(), sines_line, 0.0);
  return check_finish();
}
