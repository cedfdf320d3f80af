// std::optional of structs at every level, -O0 included: assigned,
// copied, engaged on one branch only, reset, in a vector, of a struct that
// mixes doubles and an int. Both modes, exact values, central differences
// (probe_check.h).
//
// Found 2026-12-06 (refused at -O0 in reverse mode: "a memory copy whose
// contents cannot be typed"): a local std::optional<B> copied as bytes,
// whose storage is a union of B and an empty byte, was not typed by its
// declared type (unions are not). That union's IR type is B's: it is typed
// now (analysis/TypeAnalysis.cpp, declaredFields).
#include "probe_check.h"
#include <optional>
#include <vector>

struct B { double w, h; };
struct M { int n; double r; };

// x0 > 0: x1 x2 + x0: (1, x2, x1)
static double assigned(const double *x) {
  std::optional<B> o;
  if (x[0] > 0)
    o = B{x[1], x[2]};
  std::optional<B> p = o;
  std::optional<B> q;
  q = p;
  return q ? q->w * q->h + x[0] : 0.0;
}
// n r + r^2 (n = 3, r = x1) + x0 x2, the empty one reset: (x2, 3 + 2 x1, x0)
static double mixed(const double *x) {
  std::optional<M> a = M{3, x[1]};
  std::optional<M> b;
  b = a;
  std::optional<M> c = b;
  a.reset();
  double s = c->n * c->r + c->r * c->r;
  return a ? 0.0 : s + x[0] * x[2];
}
// sum of the engaged ones: x0 x1 + x2 x2: (x1, x0, 2 x2)
static double in_vector(const double *x) {
  std::vector<std::optional<B>> v = {B{x[0], x[1]}, std::nullopt};
  v.push_back(B{x[2], x[2]});
  double s = 0;
  for (const auto &o : v)
    if (o)
      s += o->w * o->h;
  return s;
}

int main() {
  double x0 = 0.3, x1 = -0.7, x2 = 1.1;
  const double assigned_x[] = {1, x2, x1};
  PROBE_AT(assigned, 3, assigned_x, REV_TOL_FD, x0, x1, x2);
  const double mixed_x[] = {x2, 3 + 2 * x1, x0};
  PROBE_AT(mixed, 3, mixed_x, REV_TOL_FD, x0, x1, x2);
  const double vector_x[] = {x1, x0, 2 * x2};
  PROBE_AT(in_vector, 3, vector_x, REV_TOL_FD, x0, x1, x2);
  return check_finish();
}
