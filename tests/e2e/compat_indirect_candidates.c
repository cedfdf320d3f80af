/* A call through a function pointer in differentiated code dispatches to
 * the derivatives of the functions it may reach. A test harness also takes
 * the addresses of functions of the same type only to pass them to a helper
 * that calls them (check() below): those are no candidates, since check() is
 * not differentiated. One of them requests a forward derivative itself,
 * which cannot be differentiated again here: the program stopped with
 * "calls to the variadic function '__enzyme_fwddiff'" (at -O0 with
 * std::function, at every level with a table as here). Gradients of the
 * dispatching code against central differences, both modes, every level. */
#include "rev_check.h"

typedef double (*unary)(double);

static double square(double x) { return x * x; }
static double wave(double x) { return sin(3 * x) + x; }
unary table[2] = {square, wave};

/* differentiated: calls through the table */
static double mix(double x, int k) { return table[k](x) * table[1 - k](x); }

/* the harness: derivatives of each function, handed to check() */
static double d_square(double x) {
  return __enzyme_fwddiff((void *)square, enzyme_dup, x, 1.0);
}
static double d_wave(double x) {
  return __enzyme_fwddiff((void *)wave, enzyme_dup, x, 1.0);
}
__attribute__((noinline)) static void check(unary f, unary df, double x) {
  double h = 1e-6, fd = (f(x + h) - f(x - h)) / (2 * h);
  CHECK_CLOSE(df(x), fd, 1e-6);
}

static double mix0(double x) { return mix(x, 0); }
static double mix1(double x) { return mix(x, 1); }
static double d_mix0(double x) { return __enzyme_autodiff((void *)mix, x, enzyme_const, 0); }
static double d_mix1(double x) { return __enzyme_autodiff((void *)mix, x, enzyme_const, 1); }
static double t_mix0(double x) {
  return __enzyme_fwddiff((void *)mix, enzyme_dup, x, 1.0, enzyme_const, 0);
}

int main(void) {
  check(square, d_square, 0.7);
  check(wave, d_wave, 0.7);
  check(mix0, d_mix0, 0.3);
  check(mix1, d_mix1, -1.1);
  check(mix0, t_mix0, 0.9);
  CHECK_CLOSE(d_mix0(0.5), d_mix1(0.5), 1e-12);
  return check_finish();
}
