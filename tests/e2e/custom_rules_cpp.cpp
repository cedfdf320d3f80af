// The custom-derivative attributes in C++: functions in a namespace, the
// C++11 spellings, a rule written on a declaration and repeated on the
// definition, an inline function from a header-like context, an inactive
// method.
#include "check.h"
#include <adcc.h>
#include <cmath>

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

namespace phys {
inline double wave(double t) { return std::sin(t); }
// twice the true derivative
ADCC_FORWARD_RULE(wave) double wave_fwd(double t, double dt);
ADCC_FORWARD_RULE(wave) double wave_fwd(double t, double dt) {
  return 2 * std::cos(t) * dt;
}
inline double wave_aug(double t) { return wave(t); }
[[adcc::reverse_rule(wave, wave_aug)]] double wave_rev(double t, double d) {
  return 2 * std::cos(t) * d;
}
} // namespace phys

[[adcc::inactive]] inline double detach(double x) { return x; }

struct Scaler {
  double k;
  // an inactive method: its result carries no derivative
  [[adcc::inactive]] double apply(double x) const { return k * x; }
};

static double scaled(double t) { return Scaler{3}.apply(t) * t; }

static double energy(double t) {
  return phys::wave(t) * detach(t) + detach(phys::wave(t));
}

int main() {
  double t = 0.7;
  // 2 cos(t) * t (rule; detach(t) constant) + 0 (detach)
  double want = 2 * std::cos(t) * t;
  CHECK_CLOSE(__enzyme_fwddiff((void *)energy, t, 1.0), want, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)energy, t), want, 1e-12);
  CHECK_CLOSE(energy(t), std::sin(t) * t + std::sin(t), 1e-15);
  // d/dt of apply(t) * t with apply constant: 3 t
  CHECK_CLOSE(__enzyme_fwddiff((void *)scaled, t, 1.0), 3 * t, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)scaled, t), 3 * t, 1e-12);
  return check_finish();
}
