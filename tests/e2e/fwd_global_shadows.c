/* Forward mode through global variables: the tangent of what the
 * differentiated code stores into a global is in its shadow after the
 * call (`state_shadow`, defined by adcc, declared here; `d_acc`, named
 * with Enzyme's attribute); a global array written by one function and
 * read by another that takes no argument; derivatives against reverse
 * mode and central differences. An int call counter needs no mark.
 * (A forward call leaves tangents in the shadows adcc made; a reverse call
 * after it starts from zero there all the same.) */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup;

double state;
int counter;
extern double state_shadow;

static void set(double x) {
  state = x * x;
  counter++;
}
static double f(double x) {
  set(x);
  return state * 3.0;
}

double buf[4];
extern double buf_shadow[4];
static void fill(double x) {
  for (int i = 0; i < 4; ++i)
    buf[i] = x * (i + 1);
}
static double total(void) {
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += buf[i] * buf[i];
  return s;
}
static double g(double x) {
  fill(x);
  return total();
}

double d_acc;
__attribute__((enzyme_shadow(d_acc))) double acc;
static double scale = 2.5; /* read only: a tangent of zero */
static double accumulate(double x, double y) {
  acc = 0;
  for (int i = 1; i <= 3; ++i)
    acc += scale * x * i + y * y;
  return exp(acc / 10);
}

static double central(double (*fn)(double), double x) {
  double e = 1e-6;
  return (fn(x + e) - fn(x - e)) / (2 * e);
}
static double acc_y = 0.5;
static double accumulate_x(double x) { return accumulate(x, acc_y); }

int main(void) {
  for (double x = -1.5; x <= 2.0; x += 0.5) {
    int before = counter;
    double t = __enzyme_fwddiff((void *)f, x, 1.0);
    CHECK_TRUE(counter == before + 1);
    CHECK_CLOSE(t, 6 * x, 1e-14);
    CHECK_CLOSE(t, central(f, x), 1e-6);
    __enzyme_fwddiff((void *)f, x, 0.5);
    CHECK_CLOSE(state_shadow, 2 * x * 0.5, 1e-14); /* d state */
    CHECK_CLOSE(t, __enzyme_autodiff((void *)f, x), 1e-14);

    double tg = __enzyme_fwddiff((void *)g, x, 1.0);
    CHECK_CLOSE(tg, 60 * x, 1e-13);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(buf_shadow[i], i + 1, 1e-14); /* d buf[i] */
    CHECK_CLOSE(tg, __enzyme_autodiff((void *)g, x), 1e-13);

    /* d/dx, and the tangent of acc */
    double tx = __enzyme_fwddiff((void *)accumulate, x, 1.0, enzyme_const,
                                 acc_y);
    double a = 6 * scale * x + 3 * acc_y * acc_y;
    CHECK_CLOSE(tx, exp(a / 10) * 6 * scale / 10, 1e-14);
    CHECK_CLOSE(tx, central(accumulate_x, x), 1e-6);
    CHECK_CLOSE(d_acc, 6 * scale, 1e-14);
    /* d/dy */
    double ty = __enzyme_fwddiff((void *)accumulate, enzyme_const, x, acc_y,
                                 1.0);
    CHECK_CLOSE(ty, exp(a / 10) * 6 * acc_y / 10, 1e-14);
    CHECK_CLOSE(d_acc, 6 * acc_y, 1e-14);
  }
  return check_finish();
}
