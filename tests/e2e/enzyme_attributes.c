/* Enzyme's clang attributes and annotations in a C program: each mark
 * changes the derivative (an inactive function or global drops a term, a
 * function_like function takes the named function's rule instead of its
 * body's), so the checks show it is honoured, in forward and reverse mode
 * at every level. Hints (nocache, shouldrecompute, ...) leave derivatives
 * as they are. */
#include "check.h"

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
void __enzyme_double(void *, unsigned long);

/* --- functions ------------------------------------------------------------*/
/* Gradients stop here (Enzyme's stop_gradient idiom). */
__attribute__((enzyme_inactive)) double stop(double x) { return x; }
/* On a declaration, defined later. */
__attribute__((enzyme_inactive_noblock)) double stop2(double x);
/* The annotation spelling that plain clang accepts too. */
__attribute__((annotate("enzyme_inactive"))) double stop3(double x) {
  return 2 * x;
}
/* The value of log1p whose body passes no derivative (through stop): only
 * log1p's rule, taken by the mark, gives one. */
__attribute__((enzyme_function_like("log1p"))) double my_log1p(double x) {
  return log1p(stop(x));
}
__attribute__((annotate("enzyme_function_like=exp"))) double my_exp(double x) {
  return exp(stop(x));
}
/* Hints: derivatives unchanged. */
__attribute__((enzyme_nocache)) double sq(double x) { return x * x; }
__attribute__((enzyme_shouldrecompute)) double cube(double x) {
  return x * x * x;
}
__attribute__((enzyme_notypeanalysis, enzyme_sparse_accumulate,
               enzyme_nofree)) double twice(double x) {
  return 2 * x;
}

double stop2(double x) { return x * x; }

static double model(double x) {
  return stop(x) * x + stop2(x) + stop3(x) * x + my_log1p(x) + my_exp(x) +
         sq(x) + cube(x) + twice(x);
}
/* d model/dx with the marks honoured. */
static double model_dx(double x) {
  return stop(x) + stop3(x) + 1 / (1 + x) + exp(x) + 2 * x + 3 * x * x + 2;
}

/* --- globals --------------------------------------------------------------*/
/* Caches written with active values and read back: inactive, they pass no
 * derivative (without the mark this is an error: the globals have no
 * shadow). They are read in functions of their own, which the optimizer
 * keeps apart: where it forwards a stored value to a load, the value no
 * longer goes through the global. */
__attribute__((enzyme_inactive)) double cache;
/* Marked on a declaration; the definition follows. */
extern double cache2 __attribute__((enzyme_inactive));
double cache2;
[[enzyme::inactive]] static double cache3;

/* Enzyme's type hint: accepted (adcc's type analysis needs none). */
static double hinted(double *x) {
  __enzyme_double(x, sizeof(double));
  return x[0] * x[0];
}

__attribute__((noinline)) double read_caches(void) {
  return cache + cache2 * cache3;
}

static double cached(double x) {
  cache = x * x;
  cache2 = 3 * x;
  cache3 = x;
  return x + read_caches();
}

int main(void) {
  double xs[] = {0.3, 1.7};
  for (int i = 0; i < 2; ++i) {
    double x = xs[i];
    CHECK_CLOSE(__enzyme_fwddiff((void *)model, x, 1.0), model_dx(x), 1e-12);
    CHECK_CLOSE(__enzyme_autodiff((void *)model, x), model_dx(x), 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)cached, x, 1.0), 1.0, 1e-15);
    CHECK_CLOSE(__enzyme_autodiff((void *)cached, x), 1.0, 1e-15);
    /* the primal is unchanged */
    CHECK_CLOSE(cached(x), x + x * x + 3 * x * x, 1e-15);
    CHECK_CLOSE(my_log1p(x), log1p(x), 1e-15);
    double dx = 0;
    __enzyme_autodiff((void *)hinted, &x, &dx);
    CHECK_CLOSE(dx, 2 * x, 1e-15);
  }
  return check_finish();
}
