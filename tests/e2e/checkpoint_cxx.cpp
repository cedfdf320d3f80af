// Checkpointed loops through <adcc.hpp> (docs/checkpointing.md):
// adcc::checkpointed_steps, adcc::checkpointed_while and adcc::fixed_point
// over std::array states and a parameter struct, differentiated with
// adcc::gradient, and Hessian-vector products through the loops with
// adcc::hvp; each against the loop taped whole.
#include "check.h"

#include <adcc.hpp>

#include <array>

using State = std::array<double, 3>;
struct Params {
  double a, b, h, t_end;
};

static void step(State *y, const Params *p) {
  State &s = *y;
  double x = s[0], v = s[1];
  s[0] = x + p->h * v;
  s[1] = v - p->h * (p->a * std::sin(x) + p->b * v);
  s[2] += p->h;
}
static bool running(const State *y, const Params *p) {
  return (*y)[2] < p->t_end - 1e-9;
}
static void contraction(double *x, const Params *p) {
  x[0] = 0.4 * std::cos(x[1]) + p->a;
  x[1] = 0.3 * std::sin(x[0]) * p->b;
}

static double revolve(const double *y0, const Params *p) {
  State y = {y0[0], y0[1], 0};
  adcc::checkpointed_steps<step>(50, y, *p, adcc::revolve(4));
  return y[0] * y[1];
}
static double interval(const double *y0, const Params *p) {
  State y = {y0[0], y0[1], 0};
  adcc::checkpointed_steps<step>(50, y, *p, adcc::interval(6));
  return y[0] * y[1];
}
static double online(const double *y0, const Params *p) {
  State y = {y0[0], y0[1], 0};
  adcc::checkpointed_while<step, running>(y, *p, 3);
  return y[0] * y[1];
}
static double taped(const double *y0, const Params *p) {
  State y = {y0[0], y0[1], 0};
  for (int i = 0; i < 50; ++i)
    step(&y, p);
  return y[0] * y[1];
}
static double solved(const double *y0, const Params *p) {
  double x[2] = {y0[0], y0[1]};
  adcc::fixed_point<contraction>(x, 2, *p, 1e-15, 300);
  return x[0] + 2 * x[1];
}
static double solved_taped(const double *y0, const Params *p) {
  double x[2] = {y0[0], y0[1]};
  for (int i = 0; i < 300; ++i)
    contraction(x, p);
  return x[0] + 2 * x[1];
}

/* The objectives in two scalars, for adcc::hvp. */
static const Params HvpParams = {2.0, 0.3, 0.02, 1.0};
static double revolve2(double a, double b) {
  const double y0[2] = {a, b};
  return revolve(y0, &HvpParams);
}
static double online2(double a, double b) {
  const double y0[2] = {a, b};
  return online(y0, &HvpParams);
}
static double taped2(double a, double b) {
  const double y0[2] = {a, b};
  return taped(y0, &HvpParams);
}

template <typename F> static void grad(F f, double *dy, Params *dp) {
  static const double y0[2] = {0.3, 0.1};
  static const Params p = {2.0, 0.3, 0.02, 1.0};
  adcc::gradient(f, adcc::Duplicated(y0, dy), adcc::Duplicated(&p, dp));
}

int main() {
  double ry[2] = {0}, dy[2];
  Params rp = {}, dp;
  grad(taped, ry, &rp);
  using Fn = double (*)(const double *, const Params *);
  for (Fn f : {Fn(revolve), Fn(interval), Fn(online)}) {
    dy[0] = dy[1] = 0;
    dp = {};
    grad(f, dy, &dp);
    CHECK_CLOSE(dy[0], ry[0], 1e-12);
    CHECK_CLOSE(dy[1], ry[1], 1e-12);
    CHECK_CLOSE(dp.a, rp.a, 1e-12);
    CHECK_CLOSE(dp.b, rp.b, 1e-12);
    CHECK_CLOSE(dp.h, rp.h, 1e-12);
  }
  Params sp = {}, tp = {};
  double sy[2] = {0}, ty[2] = {0};
  grad(solved, sy, &sp);
  grad(solved_taped, ty, &tp);
  CHECK_CLOSE(sp.a, tp.a, 1e-11);
  CHECK_CLOSE(sp.b, tp.b, 1e-11);
  auto [wa, wb] =
      adcc::hvp(taped2, adcc::Dual(0.3, 1.0), adcc::Dual(0.1, -0.5));
  auto [ra, rb] =
      adcc::hvp(revolve2, adcc::Dual(0.3, 1.0), adcc::Dual(0.1, -0.5));
  auto [oa, ob] =
      adcc::hvp(online2, adcc::Dual(0.3, 1.0), adcc::Dual(0.1, -0.5));
  CHECK_CLOSE(ra, wa, 1e-11);
  CHECK_CLOSE(rb, wb, 1e-11);
  CHECK_CLOSE(oa, wa, 1e-11);
  CHECK_CLOSE(ob, wb, 1e-11);
  CHECK_TRUE(wa != 0 && wb != 0);
  return check_finish();
}
