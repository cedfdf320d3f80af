/* Custom derivatives and inactive functions, registered as Enzyme programs
 * do (globals) and with adcc's attributes (ADCC_FORWARD_RULE,
 * ADCC_REVERSE_RULE, ADCC_INACTIVE), on small functions that the optimizer
 * would inline or see through: an identity used to stop gradients (whose
 * result LLVM would replace by its argument), a product. Each rule gives a
 * derivative different from the true one, so that the checks show it is
 * used, in both modes and at every level. */
#include "check.h"
#include <adcc.h>

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
typedef struct {
  double da, db;
} grad2;
grad2 __enzyme_autodiff2(void *, ...);

/* --- registrations -------------------------------------------------------*/
static double stop_gradient(double x) { return x; }
void *__enzyme_inactivefn_stop[] = {(void *)stop_gradient};

static double prod(double a, double b) { return a * b; }
/* three times the true tangent */
static double prod_fwd(double a, double da, double b, double db) {
  return 3 * (da * b + a * db);
}
static double prod_aug(double a, double b) { return prod(a, b); }
static grad2 prod_rev(double a, double b, double d) {
  return (grad2){3 * b * d, 3 * a * d};
}
void *__enzyme_register_derivative_prod[] = {(void *)prod, (void *)prod_fwd};
void *__enzyme_register_gradient_prod[] = {(void *)prod, (void *)prod_aug,
                                           (void *)prod_rev};

static double model(double x, double y) {
  return prod(x, y) + stop_gradient(x * y) * x;
}

/* --- attributes ----------------------------------------------------------*/
double ident(double x);
ADCC_INACTIVE double ident(double x); /* on a declaration */
double ident(double x) { return x; }

double cube(double x) { return x * x * x; }
/* ten times the true derivative */
ADCC_FORWARD_RULE(cube) double cube_fwd(double x, double dx) {
  return 30 * x * x * dx;
}
double cube_aug(double x) { return cube(x); }
ADCC_REVERSE_RULE(cube, cube_aug) double cube_rev(double x, double d) {
  return 30 * x * x * d;
}

static double model2(double x) { return cube(x) + ident(x) * x; }

int main(void) {
  double x = 1.5, y = -0.5;
  /* d/dx: 3 y (rule) + x y (stop_gradient(x y) is a constant), d/dy: 3 x */
  double wx = 3 * y + x * y, wy = 3 * x;
  CHECK_CLOSE(__enzyme_fwddiff((void *)model, x, 1.0, y, 0.0), wx, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)model, x, 0.0, y, 1.0), wy, 1e-12);
  grad2 g = __enzyme_autodiff2((void *)model, x, y);
  CHECK_CLOSE(g.da, wx, 1e-12);
  CHECK_CLOSE(g.db, wy, 1e-12);

  /* 30 x^2 (rule) + x (ident(x) is a constant) */
  double w2 = 30 * x * x + x;
  CHECK_CLOSE(__enzyme_fwddiff((void *)model2, x, 1.0), w2, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)model2, x), w2, 1e-12);
  /* a request of the registered function itself uses its rule */
  CHECK_CLOSE(__enzyme_fwddiff((void *)prod, x, 1.0, y, 0.0), 3 * y, 1e-12);
  grad2 gp = __enzyme_autodiff2((void *)prod, x, y);
  CHECK_CLOSE(gp.da, 3 * y, 1e-12);
  CHECK_CLOSE(gp.db, 3 * x, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)cube, x, 1.0), 30 * x * x, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)cube, x), 30 * x * x, 1e-12);
  /* an inactive function's derivative is zero */
  CHECK_CLOSE(__enzyme_fwddiff((void *)ident, x, 1.0), 0, 0);
  CHECK_CLOSE(__enzyme_fwddiff((void *)prod, x, 1.0, enzyme_const, y), 3 * y,
              1e-12);

  /* the primal values are untouched */
  CHECK_CLOSE(model2(x), x * x * x + x * x, 1e-15);
  CHECK_CLOSE(model(x, y), x * y + x * y * x, 1e-15);
  return check_finish();
}
