/* Reverse mode through global variables: a global written and read back
 * within the differentiated code (state), a global array filled by one
 * function and summed by another that takes no argument, a struct of
 * doubles and ints; the shadow of state that adcc defines, `state_shadow`
 * (declared here), is zero after the call. Parameters kept in globals
 * have their adjoints in the shadows named with Enzyme's attribute and
 * annotation; one without (c) is a constant. An int call counter needs no
 * mark. A forward call before a reverse one leaves tangents in the
 * shadows adcc made: the reverse call starts from zero there. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_const, enzyme_dup, enzyme_out;

double state;
int counter;
extern double state_shadow;

static void set(double x) {
  state = x * x;
  counter++;
}
/* f(x) = 3 x^2 */
static double f(double x) {
  set(x);
  return state * 3.0;
}

double buf[4];
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
/* g(x) = sum (x (i+1))^2 = 30 x^2 */
static double g(double x) {
  fill(x);
  return total();
}

struct particle {
  double pos;
  int id;
  double vel;
} p;
/* h(x, t) = sin(x) + (2 x) t, through p */
static double h(double x, double t) {
  p.pos = sin(x);
  p.id = 7;
  p.vel = 2 * x;
  return p.pos + p.vel * t;
}

/* Parameters only read by the differentiated code: their adjoints need
 * named shadows (w's and k's named with the attribute, m's with the
 * annotation). A parameter without one (c) is a constant. */
double d_w[3];
__attribute__((enzyme_shadow(d_w))) double w[3] = {0.5, -1.5, 2.0};
double c = 4.0;
double d_k;
__attribute__((enzyme_shadow(d_k))) double k = 2.0;
double d_m;
__attribute__((annotate("enzyme_shadow", &d_m))) double m = 0.25;
static double poly(double x) {
  return k * (w[0] + w[1] * x + w[2] * x * x) + m * x * x * x + c * x;
}

static double central(double (*fn)(double), double x) {
  double e = 1e-6;
  return (fn(x + e) - fn(x - e)) / (2 * e);
}
static double h_at_t;
static double h_x(double x) { return h(x, h_at_t); }

int main(void) {
  for (double x = -1.5; x <= 2.0; x += 0.5) {
    int before = counter;
    __enzyme_fwddiff((void *)f, x, 1.0); /* leaves 2x in state_shadow */
    double d = __enzyme_autodiff((void *)f, x);
    CHECK_TRUE(counter == before + 2);
    CHECK_CLOSE(state, x * x, 0); /* the primal ran */
    CHECK_CLOSE(state_shadow, 0, 0); /* the store's adjoint took it */
    CHECK_CLOSE(d, 6 * x, 1e-14);
    CHECK_CLOSE(d, central(f, x), 1e-6);

    CHECK_CLOSE(__enzyme_autodiff((void *)g, x), 60 * x, 1e-13);
    CHECK_CLOSE(__enzyme_autodiff((void *)g, x), central(g, x), 1e-6);

    h_at_t = 0.75;
    double dx = __enzyme_autodiff((void *)h, x, enzyme_const, h_at_t);
    CHECK_CLOSE(dx, cos(x) + 2 * h_at_t, 1e-14);
    CHECK_CLOSE(dx, central(h_x, x), 1e-6);
    CHECK_TRUE(p.id == 7);
  }

  /* Adjoints of parameters accumulate into their shadows. */
  double x = 1.25;
  d_w[0] = d_w[1] = d_w[2] = 0;
  d_k = d_m = 0;
  double dx = __enzyme_autodiff((void *)poly, x);
  CHECK_CLOSE(dx, k * (w[1] + 2 * w[2] * x) + 3 * m * x * x + c, 1e-14);
  CHECK_CLOSE(dx, central(poly, x), 1e-6);
  CHECK_CLOSE(d_w[0], k, 1e-14);
  CHECK_CLOSE(d_w[1], k * x, 1e-14);
  CHECK_CLOSE(d_w[2], k * x * x, 1e-14);
  CHECK_CLOSE(d_k, w[0] + w[1] * x + w[2] * x * x, 1e-14);
  CHECK_CLOSE(d_m, x * x * x, 1e-14);
  /* each against a central difference in the parameter */
  double e = 1e-6, k0 = k;
  k = k0 + e;
  double up = poly(x);
  k = k0 - e;
  double down = poly(x);
  k = k0;
  CHECK_CLOSE(d_k, (up - down) / (2 * e), 1e-6);
  double w1 = w[1];
  w[1] = w1 + e;
  up = poly(x);
  w[1] = w1 - e;
  down = poly(x);
  w[1] = w1;
  CHECK_CLOSE(d_w[1], (up - down) / (2 * e), 1e-6);
  /* A second call adds to them (zero them between calls). */
  __enzyme_autodiff((void *)poly, x);
  CHECK_CLOSE(d_m, 2 * x * x * x, 1e-14);
  return check_finish();
}
