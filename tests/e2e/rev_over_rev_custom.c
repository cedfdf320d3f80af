/* Reverse over reverse through registered gradients (issue 33, item 9):
 * the inner gradient uses custom rules whose augmented functions pass data
 * to their reverse functions, through a malloc'd block (the tape an
 * augmented function of a void function returns) or by pushing on adcc's
 * own tape
 * (adcc_tape_push / adcc_tape_pop of <adcc_runtime.h>); the outer gradient
 * differentiates those functions' bodies. Checked against closed forms,
 * forward over reverse, and central differences of the inner gradient. */
#include "rev_check.h"

#include <adcc_runtime.h>
#include <stdlib.h>

/* *out = x^3, its rule keeping x in a malloc'd block (the tape the
 * augmented function of a void function returns) */
static void cube_to(const double *x, double *out) { *out = *x * *x * *x; }
static void *cube_to_aug(const double *x, const double *dx, double *out,
                         double *dout) {
  (void)dx, (void)dout;
  double *t = (double *)malloc(sizeof(double));
  *t = *x;
  *out = *x * *x * *x;
  return t;
}
static void cube_to_rev(const double *x, double *dx, double *out,
                        double *dout, void *tape) {
  (void)x, (void)out;
  double xs = *(double *)tape;
  free(tape);
  *dx += 3 * xs * xs * *dout;
  *dout = 0;
}
void *__enzyme_register_gradient_cube_to[] = {
    (void *)cube_to, (void *)cube_to_aug, (void *)cube_to_rev};

/* x^4 y, its rule keeping x and x^2 on the thread's tape */
static double quart(double x, double y) { return x * x * x * x * y; }
static double quart_aug(double x, double y) {
  double *rec = (double *)adcc_tape_push(adcc_tape_thread(), 24, 8);
  rec[0] = x;
  rec[1] = x * x;
  rec[2] = y;
  return x * x * x * x * y;
}
static rev_two quart_rev(double x, double y, double d) {
  (void)x, (void)y;
  double *rec = (double *)adcc_tape_pop(adcc_tape_thread(), 24, 8);
  double xs = rec[0], x2 = rec[1], ys = rec[2];
  return (rev_two){4 * xs * x2 * ys * d, x2 * x2 * d};
}
void *__enzyme_register_gradient_quart[] = {(void *)quart, (void *)quart_aug,
                                            (void *)quart_rev};

static double model(double x, double y) {
  double in = x * y, out;
  cube_to(&in, &out);
  return out + quart(x, y);
}

/* the partial derivatives of the model, by the rules */
static double model_x(double x, double y) {
  return __enzyme_autodiff2((void *)model, x, y).a;
}
static double model_y(double x, double y) {
  return __enzyme_autodiff2((void *)model, x, y).b;
}

static double at_y;
static double model_x_of_x(double x) { return model_x(x, at_y); }
static double model_y_of_x(double x) { return model_y(x, at_y); }

static void check(double x, double y) {
  /* model_x = 3 x^2 y^3 + 4 x^3 y, model_y = 3 x^3 y^2 + x^4 */
  CHECK_CLOSE(model_x(x, y), 3 * x * x * y * y * y + 4 * x * x * x * y,
              REV_TOL_EXACT);
  CHECK_CLOSE(model_y(x, y), 3 * x * x * x * y * y + x * x * x * x,
              REV_TOL_EXACT);
  rev_two hx = __enzyme_autodiff2((void *)model_x, x, y);
  rev_two hy = __enzyme_autodiff2((void *)model_y, x, y);
  double hxx = 6 * x * y * y * y + 12 * x * x * y;
  double hxy = 9 * x * x * y * y + 4 * x * x * x;
  double hyy = 6 * x * x * x * y;
  CHECK_CLOSE(hx.a, hxx, REV_TOL_EXACT);
  CHECK_CLOSE(hx.b, hxy, REV_TOL_EXACT);
  CHECK_CLOSE(hy.a, hxy, REV_TOL_EXACT);
  CHECK_CLOSE(hy.b, hyy, REV_TOL_EXACT);
  /* forward over reverse through the same rules */
  CHECK_CLOSE(__enzyme_fwddiff((void *)model_x, x, 1.0, y, 0.0), hx.a,
              REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)model_y, x, 0.0, y, 1.0), hy.b,
              REV_TOL_EXACT);
  at_y = y;
  CHECK_CLOSE(hx.a, fd_central(model_x_of_x, x), REV_TOL_FD);
  CHECK_CLOSE(hy.a, fd_central(model_y_of_x, x), REV_TOL_FD);
  printf("H(%.2f, %.2f) = [%.12f %.12f; %.12f]\n", x, y, hx.a, hx.b, hy.b);
}

int main(void) {
  check(0.8, -1.3);
  check(-1.1, 0.6);
  /* the rules' records all popped */
  adcc_tape_stats s;
  adcc_tape_get_stats(adcc_tape_thread(), &s);
  CHECK_TRUE(s.live_bytes == 0);
  return check_finish();
}
