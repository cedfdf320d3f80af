// std::variant of structs of doubles in a std::vector at every level, -O0
// included: built from an initializer list, grown by push_back, visited,
// local variants copied and assigned.
// Both modes, exact values, central differences (probe_check.h).
//
// Found 2026-12-06 (refused at -O0 in reverse mode: "a memory copy whose
// contents cannot be typed"): libstdc++ copies each element as the bytes
// of the variant, a union whose IR type names one alternative. A
// parameter declared `std::variant<A, B>*` (std::_Construct, the vector's
// members) is now typed from the alternatives' declared fields where they
// agree (analysis/SourceTypes.cpp, variantStruct), and so is a local
// variant passed to its members or to std::get (analysis/CalleeTypes.cpp):
// local variants copied and assigned were refused at -O0 too.
#include "probe_check.h"
#include <type_traits>
#include <variant>
#include <vector>

struct A { double r; };
struct B { double w, h; };

// x0^2 + x1 x2 + x2^2: (2 x0, x2, x1 + 2 x2)
static double visited(const double *x) {
  std::vector<std::variant<A, B>> v = {A{x[0]}, B{x[1], x[2]}, A{x[2]}};
  double s = 0;
  for (auto &e : v)
    s += std::visit(
        [](auto &o) {
          if constexpr (std::is_same_v<std::decay_t<decltype(o)>, A>)
            return o.r * o.r;
          else
            return o.w * o.h;
        },
        e);
  return s;
}
// The same sum with a double alternative, the third element pushed.
static double with_double(const double *x) {
  std::vector<std::variant<double, B>> v = {x[0], B{x[1], x[2]}};
  v.push_back(x[2]);
  double s = 0;
  for (auto &e : v)
    s += std::holds_alternative<double>(e)
             ? std::get<double>(e) * std::get<double>(e)
             : std::get<B>(e).w * std::get<B>(e).h;
  return s;
}
// Local variants copied and assigned (as bytes at -O0), each alternative:
// x0 x1 + x2^2: (x1, x0, 2 x2)
static double locals(const double *x) {
  std::variant<A, B> a = B{x[0], x[1]};
  std::variant<A, B> b = a;
  std::variant<A, B> c = A{x[2]};
  c = b;
  std::variant<A, B> d = A{x[2]};
  std::variant<A, B> e = d;
  return std::get<B>(c).w * std::get<B>(c).h + std::get<A>(e).r * x[2];
}

int main() {
  double x0 = 0.3, x1 = -0.7, x2 = 1.1;
  const double exact[] = {2 * x0, x2, x1 + 2 * x2};
  PROBE_AT(visited, 3, exact, REV_TOL_FD, x0, x1, x2);
  PROBE_AT(with_double, 3, exact, REV_TOL_FD, x0, x1, x2);
  const double locals_x[] = {x1, x0, 2 * x2};
  PROBE_AT(locals, 3, locals_x, REV_TOL_FD, x0, x1, x2);
  return check_finish();
}
