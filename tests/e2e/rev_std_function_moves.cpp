// std::function moved and assigned at every level, -O0 included: copy
// assignment (`h = g`), move assignment, assignment of a lambda, swap (a
// function with itself too), a std::vector of functions grown by
// push_back (its relocation moves each element), lambdas kept in the
// function's own storage and on the heap, a functor object with a double
// member, and the result of std::bind (constructed: assigned, it is an
// error from -O1, docs/status.md). Both modes, exact values, central differences
// (probe_check.h).
//
// Found 2026-12-06, at -O0 in reverse mode: libstdc++ moves a function's
// storage (std::_Any_data) as 16 untyped bytes in its move constructor and
// in std::swap<std::_Any_data>; the adjoints of a lambda's captured
// doubles were lost there: SILENT for move assignment and push_back (d/dk
// 0), a located error for copy assignment, refused at -O2 in push_back's
// _M_realloc_insert. Those moves are marked (prepare/ErasedMoves.cpp) and
// their adjoints moved back as bytes (reverse/CopyAdjoints.cpp). A
// std::bind result kept on the heap was refused at -O0 (its manager's clone
// untyped): its class's IR type is read from its members' bodies now
// (analysis/SourceTypes.cpp, classStruct).
#include "probe_check.h"
#include <functional>
#include <utility>
#include <vector>

// d/dx = (k, t, 0)
static double copy_assigned(const double *x) {
  double k = x[1];
  std::function<double(double)> g = [k](double t) { return k * t; };
  std::function<double(double)> h;
  h = g;
  return h(x[0]);
}
// d/dx = (k, t, 0)
static double move_assigned(const double *x) {
  double k = x[1];
  std::function<double(double)> h;
  h = [k](double t) { return k * t; };
  std::function<double(double)> g;
  g = std::move(h);
  return g(x[0]);
}
// f = k t + m^2 (k, m, t = x1, x2, x0): (k, t, 2m)
static double swapped(const double *x) {
  double k = x[1], m = x[2];
  std::function<double(double)> a = [k](double t) { return k * t; };
  std::function<double(double)> b = [m](double t) { return m * m + 0 * t; };
  a.swap(b);
  b.swap(b);
  std::swap(a, a);
  return b(x[0]) + a(x[0]);
}
// sum over i of c_i t_i: k x0 + m k x2 + k m x0 x2 (heap closure)
static double pushed(const double *x) {
  double k = x[1], m = x[2], q = x[0];
  std::vector<std::function<double(double)>> fs;
  fs.push_back([k](double t) { return k * t; });
  fs.push_back([k, m](double t) { return m * t * k; });
  fs.push_back([k, m, q](double t) { return k * m * q * t + 0 * k; });
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += fs[i](x[i == 1 ? 2 : i]);
  return s;
}
// A closure of four doubles, kept on the heap, copy- and move-assigned:
// k m q t (t = x0, k = x1, m = x2, q = x0): (2 k m x0, m x0^2, k x0^2)
static double heap_assigned(const double *x) {
  double k = x[1], m = x[2], q = x[0], z = 0;
  std::function<double(double)> g = [k, m, q, z](double t) {
    return k * m * q * t + z;
  };
  std::function<double(double)> h, j;
  h = g;
  j = std::move(h);
  return j(x[0]);
}
struct scale {
  double k;
  double operator()(double t) const { return k * t * t; }
};
// k t^2: (2 k t, t^2, 0)
static double functor_assigned(const double *x) {
  std::function<double(double)> f = scale{x[1]};
  std::function<double(double)> g;
  g = f;
  std::vector<std::function<double(double)>> v;
  v.push_back(std::move(g));
  return v[0](x[0]);
}
static double mul3(double a, double b, double c) { return a * b * c; }
// x1 x0 x2 + x1 x2 x2: (x1 x2, x0 x2 + x2^2, x1 x0 + 2 x1 x2)
static double bound(const double *x) {
  auto b = std::bind(mul3, x[1], std::placeholders::_1, x[2]);
  std::function<double(double)> f = b;
  return f(x[0]) + b(x[2]);
}
// The same, copy-assigned: the manager clones the bind object (refused
// from -O1 until 2026-12-06: e2e rev_std_bind_copies.cpp).
static double bound_assigned(const double *x) {
  auto b = std::bind(mul3, x[1], std::placeholders::_1, x[2]);
  std::function<double(double)> f = b, g;
  g = f;
  return g(x[0]) + b(x[2]);
}

int main() {
  double x0 = 0.3, x1 = -0.7, x2 = 1.1;
  const double copy_x[] = {x1, x0, 0};
  PROBE_AT(copy_assigned, 3, copy_x, REV_TOL_FD, x0, x1, x2);
  PROBE_AT(move_assigned, 3, copy_x, REV_TOL_FD, x0, x1, x2);
  const double swap_x[] = {x1, x0, 2 * x2};
  PROBE_AT(swapped, 3, swap_x, REV_TOL_FD, x0, x1, x2);
  const double push_x[] = {x1 + x1 * x2 * x2, x0 + x2 * x2 + x2 * x0 * x2,
                           2 * x2 * x1 + x1 * x0 * x2 + x1 * x0 * x2};
  PROBE_AT(pushed, 3, push_x, REV_TOL_FD, x0, x1, x2);
  const double heap_x[] = {2 * x1 * x2 * x0, x2 * x0 * x0, x1 * x0 * x0};
  PROBE_AT(heap_assigned, 3, heap_x, REV_TOL_FD, x0, x1, x2);
  const double functor_x[] = {2 * x1 * x0, x0 * x0, 0};
  PROBE_AT(functor_assigned, 3, functor_x, REV_TOL_FD, x0, x1, x2);
  const double bound_x[] = {x1 * x2, x0 * x2 + x2 * x2, x1 * x0 + 2 * x1 * x2};
  PROBE_AT(bound, 3, bound_x, REV_TOL_FD, x0, x1, x2);
  PROBE_AT(bound_assigned, 3, bound_x, REV_TOL_FD, x0, x1, x2);
  return check_finish();
}
