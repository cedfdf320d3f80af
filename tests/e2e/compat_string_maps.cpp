// String-keyed maps in differentiated C++: std::map and std::unordered_map
// built inside the function (keys hashed by std::_Hash_bytes, compared by
// bcmp/memcmp at -O1 and above: inactive library calls, whatever the
// values beside the keys hold), a key longer than std::string's small
// buffer, tables that rehash as they grow, and maps of coefficients passed as enzyme_const pointers (at, find,
// count). Reverse and forward mode against analytic values and central
// differences.
#include "check.h"

#include <map>
#include <string>
#include <unordered_map>

extern int enzyme_const, enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static const char *const LongKey = "a key longer than the small-string buffer";

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

// Forty entries each (the hash table rehashes, its bucket arrays grow):
// sum over i = 0, 3, ..., 39 of (x i)(x^2 i) = x^3 sum i^2
static double rehashed(double x) {
  std::unordered_map<std::string, double> u;
  std::map<std::string, double> m;
  for (int i = 0; i < 40; i++) {
    u["key" + std::to_string(i)] = x * i;
    m["k" + std::to_string(i)] = x * x * i;
  }
  double s = 0;
  for (int i = 0; i < 40; i += 3)
    s += u.at("key" + std::to_string(i)) * m["k" + std::to_string(i)];
  return s;
}

using Coefs = std::map<std::string, double>;
using Hashed = std::unordered_map<std::string, double>;

// alpha x^2 + beta x + gamma x (delta present)
static double coefficients(double x, const Coefs *m, const Hashed *u) {
  return x * x * m->at("alpha") + x * u->at("beta") +
         m->find("gamma")->second * (u->count("delta") ? x : 0.0);
}

int main() {
  const double xs[] = {1.5, -0.7};
  Coefs m{{"alpha", 2.0}, {"gamma", 1.0}};
  Hashed u{{"beta", 3.0}, {"delta", 4.0}};
  for (double x : xs) {
    const double h = 1e-6;
    double want = 8 * x + 2;
    CHECK_CLOSE(__enzyme_autodiff((void *)built_inside, x), want, 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)built_inside, x, 1.0), want, 1e-12);
    CHECK_CLOSE((built_inside(x + h) - built_inside(x - h)) / (2 * h), want,
                1e-6);

    double squares = 0;
    for (int i = 0; i < 40; i += 3)
      squares += i * i;
    want = 3 * x * x * squares;
    CHECK_CLOSE(__enzyme_autodiff((void *)rehashed, x), want, 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)rehashed, x, 1.0), want, 1e-12);

    want = 4 * x + 3 + 1;
    CHECK_CLOSE(__enzyme_autodiff((void *)coefficients, enzyme_out, x,
                                  enzyme_const, &m, enzyme_const, &u),
                want, 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)coefficients, enzyme_dup, x, 1.0,
                                 enzyme_const, &m, enzyme_const, &u),
                want, 1e-12);
    CHECK_CLOSE((coefficients(x + h, &m, &u) - coefficients(x - h, &m, &u)) /
                    (2 * h),
                want, 1e-6);
  }
  return check_finish();
}
