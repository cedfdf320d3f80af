/* modf / modff (llvm.modf.*) in both modes: d frac/dx = 1, the integer
 * part has no derivative. (llvm.sincos gets its rule too, {cos, -sin}, but
 * clang forms it only after the AD pass; once silently zero, then a clean
 * error, now differentiated.) Closed forms, forward against reverse. */
#include "rev_check.h"

static double g(double x) {
  double ip;
  double f = modf(x, &ip);
  return f * f + ip * x;
}
static float gf(float x) {
  float ip;
  return modff(x, &ip);
}

int main(void) {
  double x = 1.3;
  CHECK_CLOSE(__enzyme_autodiff((void *)g, x), 2 * (x - 1) + 1, 1e-14);
  CHECK_CLOSE(__enzyme_autodiff_f((void *)gf, 1.3f), 1.0, 1e-7);
  CHECK_CLOSE(__enzyme_fwddiff((void *)g, x, 1.0), 2 * (x - 1) + 1, 1e-14);
  CHECK_CLOSE(__enzyme_fwddiff_f((void *)gf, 1.3f, 1.0f), 1.0, 1e-7);
  return check_finish();
}
