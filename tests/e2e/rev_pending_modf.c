/* PENDING (not registered): modf / modff (llvm.modf.*) and sincos
 * (llvm.sincos.*, under -fno-math-errno or -ffast-math) in reverse mode.
 * Until the 21:04 build they got a zero derivative SILENTLY (modf: 0, want
 * 1; sin(x) cos(x) through sincos: 0, want cos 2x); since the 21:09 build
 * they are clean errors ("the intrinsic 'llvm.modf.f64' is not supported
 * yet in reverse mode").  Kept as the acceptance test.
 *   sincos case: adcc -O2 -ffast-math with
 *   double sc(double x) { double s, c; sincos(x, &s, &c); return s * c; } */
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
  return check_finish();
}
