// The result struct works with auto, structured bindings, copies and
// assignment, in every C++ standard adcc accepts.
// RUN: %adcc++ -std=c++11 -fsyntax-only -Xclang -verify -Wall -Wextra %s
// RUN: %adcc++ -std=c++14 -fsyntax-only -Xclang -verify -Wall -Wextra %s
// RUN: %adcc++ -std=c++17 -fsyntax-only -Xclang -verify -Wall -Wextra %s
// RUN: %adcc++ -std=c++20 -fsyntax-only -Xclang -verify -Wall -Wextra %s
// RUN: %adcc++ -std=c++23 -fsyntax-only -Xclang -verify -Wall -Wextra %s
// expected-no-diagnostics
#include <adcc.h>
#include <type_traits>
#include <utility>

ADCC_FORWARD(d_sq, Dual, Dual) double sq(double x);
ADCC_FORWARD_BATCH(d_b, 4, Dual, Dual) double b(double x);
ADCC_FORWARD_BATCH(d_bo, 2, Dual, DualOnly) float bo(float x);

static_assert(std::is_trivially_copyable<__adcc_d_sq_result>::value, "");
static_assert(std::is_standard_layout<__adcc_d_b_result>::value, "");
static_assert(std::is_same<decltype(d_sq(1.0, 1.0).primal), double>::value, "");
static_assert(std::is_same<decltype(d_b(1, 1, 2, 3, 4).d_return), double[4]>::value, "");
static_assert(std::is_same<decltype(d_bo(1, 1, 2).d_return), float[2]>::value, "");
static_assert(sizeof(__adcc_d_bo_result) == 2 * sizeof(float), "");

double use() {
  auto r = d_sq(3.0, 1.0);
  __adcc_d_sq_result copy = r;
  copy = d_sq(2.0, 1.0);
  __adcc_d_sq_result moved = std::move(copy);
  __adcc_d_sq_result braced{1.0, 2.0};
  auto batch = d_b(1.0, 1.0, 2.0, 3.0, 4.0);
  double sum = r.primal + moved.d_return + braced.d_return + batch.d_return[3];
#if __cplusplus >= 201703L
  auto [primal, tangent] = d_sq(3.0, 1.0);
  auto [value, lanes] = d_b(1.0, 1.0, 2.0, 3.0, 4.0);
  const auto &[tangents] = d_bo(1.0f, 1.0f, 0.0f);
  sum += primal + tangent + value + lanes[0] + tangents[1];
#endif
  return sum;
}
