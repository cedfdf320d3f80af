/* Enzyme requests whose calls do not have their declaration's type: an
 * unprototyped declaration (`double __enzyme_autodiff();`, old C: each call
 * has its own type) and several declarations of one entry point under one
 * asm label with different results (a double, a float, a struct of two
 * tangents with enzyme_width 2). Each was left a call of the undefined
 * entry point (the program did not link) until 2026-12-06. Gradients and
 * tangents against analytic values and central differences, forward
 * against reverse. */
#include "check.h"

#include <math.h>

#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
double __enzyme_autodiff(); /* no prototype */
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");
typedef struct {
  double d[2];
} two;
two __enzyme_fwddiff_2(void *, ...) __asm__("__enzyme_fwddiff");
extern int enzyme_width, enzyme_out, enzyme_const;

static double f(double x, double y) { return x * x * sin(y) + exp(0.5 * x); }
static float g(float x) { return x * x * x - 2 * x; }

int main(void) {
  double x = 0.7, y = 1.3, h = 1e-6;
  double dfdx = 2 * x * sin(y) + 0.5 * exp(0.5 * x), dfdy = x * x * cos(y);
  double fdx = (f(x + h, y) - f(x - h, y)) / (2 * h);
  double fdy = (f(x, y + h) - f(x, y - h)) / (2 * h);

  /* Reverse mode through the unprototyped declaration, called as a
   * function returning the struct of the two adjoints, and as declared
   * with a constant argument. */
  typedef struct {
    double dx, dy;
  } grads;
  grads G = ((grads(*)())__enzyme_autodiff)((void *)f, x, y);
  CHECK_CLOSE(G.dx, dfdx, 1e-12);
  CHECK_CLOSE(G.dy, dfdy, 1e-12);
  CHECK_CLOSE(G.dx, fdx, 1e-6);
  double Gx = __enzyme_autodiff((void *)f, x, enzyme_const, y);
  CHECK_CLOSE(Gx, dfdx, 1e-12);

  /* Forward mode: double, float and two directions at once. */
  double T = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  CHECK_CLOSE(T, dfdx, 1e-12);
  CHECK_CLOSE(T, G.dx, 1e-12);
  float xf = 1.25f;
  float Tf = __enzyme_fwddiff_f((void *)g, xf, 1.0f);
  CHECK_CLOSE(Tf, 3 * xf * xf - 2, 1e-6);
  two T2 = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y,
                              0.0, 1.0);
  CHECK_CLOSE(T2.d[0], dfdx, 1e-12);
  CHECK_CLOSE(T2.d[1], dfdy, 1e-12);
  CHECK_CLOSE(T2.d[1], fdy, 1e-6);
  return check_finish();
}
