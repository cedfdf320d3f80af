// Forward mode of a function building std::map and std::unordered_map
// with std::string keys (a long key on the heap), its request a plain call
// (no destructor in the calling function): the tangent of a string's data
// pointer, read where it may be null, is a scratch shadow within the
// request's session, and the string's destructor freed it (free(): invalid
// pointer at -O1, before 2026-12-06). A scratch shadow is never freed.
#include "check.h"

#include <map>
#include <string>
#include <unordered_map>

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

static const char LongKey[] = "a key long enough to live on the heap";

// 3x^2 + x^2 + 2x
static double built_inside(double x) {
  std::map<std::string, double> m;
  m["a"] = x * x;
  m["b"] = 3.0;
  std::unordered_map<std::string, double> u;
  u["w"] = x;
  u[std::string(LongKey)] = 2 * x;
  return m.at("a") * m["b"] + u["w"] * u.at("w") + u.at(LongKey);
}

__attribute__((noinline)) static double gradient(double x) {
  return __enzyme_autodiff((void *)built_inside, x);
}

__attribute__((noinline)) static double tangent(double x) {
  return __enzyme_fwddiff((void *)built_inside, x, 1.0);
}

int main() {
  const double xs[] = {1.5, -0.7}, h = 1e-6;
  for (double x : xs) {
    CHECK_CLOSE(gradient(x), 8 * x + 2, 1e-12);
    CHECK_CLOSE(tangent(x), 8 * x + 2, 1e-12);
    CHECK_CLOSE((built_inside(x + h) - built_inside(x - h)) / (2 * h),
                8 * x + 2, 1e-6);
  }
  return check_finish();
}
