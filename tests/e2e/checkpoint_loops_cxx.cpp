// Checkpointed loops written with the attribute [[adcc::checkpoint(...)]]
// in C++ (docs/checkpointing.md): an explicit heat equation over a
// std::array held in a local variable, stepped by a function that takes
// it by reference; revolve, interval, and nested annotated loops (an outer
// checkpointed loop whose body runs an inner one), differentiated with
// adcc::gradient, each against the loops taped whole.
#include "check.h"

#include <adcc.hpp>

#include <array>

using Grid = std::array<double, 12>;
struct Params {
  double kappa, source;
};

static void heat_step(Grid &u, const Params *p) {
  Grid next = u;
  for (unsigned i = 1; i + 1 < u.size(); ++i)
    next[i] = u[i] + p->kappa * (u[i - 1] - 2 * u[i] + u[i + 1]) +
              p->source * std::sin(u[i]);
  u = next;
}

static Grid start(const double *u0) {
  Grid u;
  for (unsigned i = 0; i < u.size(); ++i)
    u[i] = u0[i % 3] * (1 + 0.1 * i);
  return u;
}

static double loss(const Grid &u) {
  double s = 0;
  for (double v : u)
    s += v * v;
  return s;
}

static double taped(const double *u0, const Params *p) {
  Grid u = start(u0);
  for (int t = 0; t < 20; ++t)
    heat_step(u, p);
  return loss(u);
}

static double revolve(const double *u0, const Params *p) {
  Grid u = start(u0);
  [[adcc::checkpoint(3)]] for (int t = 0; t < 20; ++t) heat_step(u, p);
  return loss(u);
}

static double interval(const double *u0, const Params *p) {
  Grid u = start(u0);
  [[adcc::checkpoint(4, ADCC_INTERVAL)]] for (int t = 0; t < 20; ++t)
    heat_step(u, p);
  return loss(u);
}

static double nested_taped(const double *u0, const Params *p) {
  Grid u = start(u0);
  for (int e = 0; e < 4; ++e) {
    for (int t = 0; t < 5; ++t)
      heat_step(u, p);
    u[0] += 0.01 * u[5];
  }
  return loss(u);
}

static double nested(const double *u0, const Params *p) {
  Grid u = start(u0);
  [[adcc::checkpoint(2)]] for (int e = 0; e < 4; ++e) {
    [[adcc::checkpoint(2)]] for (int t = 0; t < 5; ++t) heat_step(u, p);
    u[0] += 0.01 * u[5];
  }
  return loss(u);
}

template <typename F>
static void grad(F f, double *du, Params *dp) {
  static const double u0[3] = {0.3, 0.1, -0.2};
  static const Params p = {0.2, 0.05};
  adcc::gradient(f, adcc::Duplicated(u0, du), adcc::Duplicated(&p, dp));
}

static void compare(const double *du, const Params &dp, const double *ru,
                    const Params &rp) {
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(du[i], ru[i], 1e-12);
  CHECK_CLOSE(dp.kappa, rp.kappa, 1e-12);
  CHECK_CLOSE(dp.source, rp.source, 1e-12);
}

int main() {
  double ru[3] = {0}, du[3];
  Params rp = {}, dp;
  grad(taped, ru, &rp);
  using Fn = double (*)(const double *, const Params *);
  for (Fn f : {Fn(revolve), Fn(interval)}) {
    du[0] = du[1] = du[2] = 0;
    dp = {};
    adcc_checkpoint_reset_stats();
    grad(f, du, &dp);
    compare(du, dp, ru, rp);
    adcc_checkpoint_stats st;
    adcc_checkpoint_get_stats(&st);
    CHECK_TRUE(st.recorded == 20 && st.reversed == 20);
    CHECK_TRUE(st.snapshots_peak <= 4);
  }
  double nu[3] = {0};
  Params np = {};
  grad(nested_taped, nu, &np);
  du[0] = du[1] = du[2] = 0;
  dp = {};
  adcc_checkpoint_reset_stats();
  grad(nested, du, &dp);
  compare(du, dp, nu, np);
  adcc_checkpoint_stats st;
  adcc_checkpoint_get_stats(&st);
  CHECK_TRUE(st.reversed == st.recorded && st.recorded >= 4 + 20);
  static const double u0[3] = {0.3, 0.1, -0.2};
  static const Params p = {0.2, 0.05};
  CHECK_CLOSE(nested(u0, &p), nested_taped(u0, &p), 1e-15);
  return check_finish();
}
