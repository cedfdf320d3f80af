/* Registered gradients whose augmented function returns no result, as
 * Enzyme accepts for a function whose result is not a pointer: `void`, or
 * the tape alone. Where the caller uses the result, adcc runs the function
 * once more for it (it writes only its own frame: the bit-level inverse
 * square root below); where the result is unused, nothing runs. Each rule's
 * derivative differs from the true one by a factor, so the checks show the
 * rule is used; the rest of the gradient is checked against central
 * differences. This form was refused ("does not have the expected
 * signature") before. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);

/* 1/sqrt(x) by the bit trick and one Newton step: memcpy through an
 * integer, which is why a rule is registered for it */
static float rsqrt_bits(float x) {
  uint32_t i;
  float y = x;
  memcpy(&i, &y, sizeof i);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y, &i, sizeof y);
  return y * (1.5f - 0.5f * x * y * y);
}
static void rsqrt_aug(float x) { (void)x; }
/* twice the exact derivative of x^(-1/2), computed from x alone */
static float rsqrt_rev(float x, float d) {
  return 2 * d * (-0.5f / (x * sqrtf(x)));
}
void *__enzyme_register_gradient_rsqrt[] = {
    (void *)rsqrt_bits, (void *)rsqrt_aug, (void *)rsqrt_rev};

/* a tape-only augmented function: it saves x on the heap for the reverse */
static double cube(double x) { return x * x * x; }
static void *cube_aug(double x) {
  double *t = malloc(sizeof *t);
  *t = x;
  return t;
}
/* three times the true derivative, from the saved x */
static double cube_rev(double x, double d, void *tape) {
  (void)x;
  double s = *(double *)tape;
  free(tape);
  return 3 * 3 * s * s * d;
}
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug,
                                           (void *)cube_rev};

static double invnorm(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  return rsqrt_bits((float)s) + cube(a[0]) * a[1];
}

/* the result of the rule's function used in the reverse sweep: d/dc is
 * r^2, with r the value the second run of rsqrt_bits gives */
static double scaled(const double *a, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  double r = rsqrt_bits((float)s);
  return r * r * c;
}

/* the result of the rule's function unused: its reverse function gets a
 * zero adjoint */
static double unused(double x) {
  cube(x);
  return x * x;
}

int main(void) {
  double a[3] = {1, 2, 3}, da[3] = {0};
  __enzyme_autodiff((void *)invnorm, a, da, 3);
  double s = 14;
  for (int i = 0; i < 3; ++i) {
    double want = 2 * (-0.5 / (s * sqrt(s))) * 2 * a[i];
    if (i == 0)
      want += 3 * 3 * a[0] * a[0] * a[1];
    if (i == 1)
      want += a[0] * a[0] * a[0];
    CHECK_CLOSE(da[i], want, 1e-6);
  }
  double db[3] = {0}, r = rsqrt_bits(14.0f);
  CHECK_CLOSE(__enzyme_autodiff((void *)scaled, a, db, 3, 0.5), r * r, 1e-15);
  CHECK_CLOSE(db[0], 0.5 * 2 * r * 2 * (-0.5 / (s * sqrt(s))) * 2 * a[0],
              1e-6);
  CHECK_CLOSE(__enzyme_autodiff((void *)unused, 1.5), 3.0, 1e-12);
  return check_finish();
}
