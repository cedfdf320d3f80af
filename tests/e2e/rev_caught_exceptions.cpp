// Reverse mode through a try/catch whose handler goes on after an exception
// left a differentiated call (issue 33, Enzyme's convention): the reverse
// of the invoke is that of a call, so every run whose handler is not taken
// gets the right derivative (a run that takes it stops with a run-time
// error: lit errors/exceptions.cpp). Until 2026-12-06 these were refused
// at compile time.
//  (a) catch (...) around the only differentiated call, a flag read after;
//  (b) miniFE's generate_matrix_structure: a differentiated call, then a
//      try around the reservation and filling of a std::vector (its own
//      calls differentiated) whose catch (...) sets a flag;
//  (c) a typed handler (std::exception &) in a loop around a call that
//      throws for some arguments, a std::string built for the message:
//      taken only by the primal runs here;
//  (d) a handler whose value joins the result (a phi of the call's value
//      and the handler's), in a function with a local destructor.
// Each against the closed form, central differences and forward mode.
#include "check.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

constexpr int N = 4;

// s = sum sin(x_i) x_i; throws for n < 0
__attribute__((noinline)) double sum_sin(const double *x, int n) {
  if (n < 0)
    throw std::runtime_error("negative size");
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i]) * x[i];
  return s;
}

// (a) f = s^2
double caught_flag(const double *x, int n) {
  double y = 0;
  int threw = 0;
  try {
    y = sum_sin(x, n);
  } catch (...) {
    threw = 1;
  }
  if (threw)
    return -1;
  return y * y;
}

// (b) f = s^2 sum x_i^2
double structure_then_values(const double *x, int n) {
  double s = sum_sin(x, n);
  int threw = 0;
  std::vector<double> v;
  try {
    v.reserve(n);
    for (int i = 0; i < n; ++i)
      v.push_back(x[i] * s);
  } catch (...) {
    threw = 1;
  }
  if (threw)
    return 0;
  double r = 0;
  for (double e : v)
    r += e * e;
  return r;
}

// (c) work(x, k) = k x_0 x_1 (k > 0), throws for k <= 0; f = sum over
// k = 1..3 = 6 x_0 x_1 for n = N (none throws), x_0 x_1 for n = N - 2
__attribute__((noinline)) double work(const double *x, int k) {
  double w = k * x[0] * x[1];
  if (k <= 0)
    throw std::invalid_argument("k = " + std::to_string(k));
  return w;
}
double typed_in_loop(const double *x, int n) {
  double total = 0;
  for (int k = 1; k <= 3; ++k) {
    try {
      total += work(x, k + n - N);
    } catch (const std::exception &) {
      total += 0;
    }
  }
  return total;
}

// (d) f = exp(s) (the handler's 0 is never the result here)
struct Counter {
  int *count;
  ~Counter() { ++*count; }
};
double joined(const double *x, int n) {
  int count = 0;
  Counter c{&count};
  double y;
  try {
    y = std::exp(sum_sin(x, n));
  } catch (const std::runtime_error &) {
    y = 0;
  }
  return y;
}

using Fn = double (*)(const double *, int);

static double ds_dx(const double *x, int i) {
  return std::cos(x[i]) * x[i] + std::sin(x[i]);
}

static void check_fn(const char *name, Fn f, const double *x,
                     const double *want) {
  double g[N] = {0}, xc[N];
  for (int i = 0; i < N; ++i)
    xc[i] = x[i];
  __enzyme_autodiff((void *)f, enzyme_dup, xc, g, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double p[N], m[N], t[N] = {0};
    for (int j = 0; j < N; ++j)
      p[j] = m[j] = x[j];
    double h = 1e-6;
    p[i] += h;
    m[i] -= h;
    double fd = (f(p, N) - f(m, N)) / (2 * h);
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void *)f, enzyme_dup, xc, t, enzyme_const, N);
    CHECK_CLOSE(g[i], want[i], 1e-10);
    CHECK_CLOSE(fd, want[i], 1e-6);
    CHECK_CLOSE(fwd, want[i], 1e-10);
  }
  printf("%s: d/dx0 %.12f\n", name, g[0]);
}

int main() {
  const double x[N] = {0.3, -0.5, 0.7, 1.1};
  double s = 0, sq = 0;
  for (int i = 0; i < N; ++i) {
    s += std::sin(x[i]) * x[i];
    sq += x[i] * x[i];
  }
  double want[N];
  for (int i = 0; i < N; ++i)
    want[i] = 2 * s * ds_dx(x, i);
  check_fn("caught_flag", caught_flag, x, want);
  for (int i = 0; i < N; ++i)
    want[i] = 2 * s * ds_dx(x, i) * sq + s * s * 2 * x[i];
  check_fn("structure_then_values", structure_then_values, x, want);
  for (int i = 0; i < N; ++i)
    want[i] = i == 0 ? 6 * x[1] : i == 1 ? 6 * x[0] : 0;
  check_fn("typed_in_loop", typed_in_loop, x, want);
  for (int i = 0; i < N; ++i)
    want[i] = std::exp(s) * ds_dx(x, i);
  check_fn("joined", joined, x, want);
  // The primal's handlers still work (not differentiated here).
  CHECK_CLOSE(caught_flag(x, -1), -1, 0);
  CHECK_CLOSE(joined(x, -1), 0, 0);
  CHECK_CLOSE(typed_in_loop(x, N - 2), x[0] * x[1], 1e-15);
  return check_finish();
}
