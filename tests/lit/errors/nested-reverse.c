// Reverse mode over reverse mode (the gradient of a function that itself
// calls __enzyme_autodiff) that is not supported yet: the error points at
// the user's outer request and names the user's functions, never adcc's
// internal sweeps (augmented_*, diffe_*, gradient_*) or its runtime
// (adcc_tape_*).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTERNAL
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// INTERNAL-NOT: augmented_
// INTERNAL-NOT: diffe_
// INTERNAL-NOT: gradient_
// INTERNAL-NOT: adcc_tape
extern int enzyme_width, enzyme_const;
double __enzyme_autodiff(void *, ...);
typedef struct {
  double a, b;
} two;
two __enzyme_autodiff2(void *, ...);

// A registered augmented function that returns {result, void *tape}: the
// pointer's derivative, once the inner gradient is differentiated again.
typedef struct {
  double result;
  void *tape;
} with_tape;
double cube(double x);
with_tape cube_aug(double x);
double cube_rev(double x, double d, void *tape);
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_aug,
                                           (void *)cube_rev};
with_tape cube_aug(double x) {
  double *t = (double *)__builtin_malloc(sizeof(double));
  *t = x;
  return (with_tape){x * x * x, t};
}
double cube_rev(double x, double d, void *tape) {
  double xs = *(double *)tape;
  __builtin_free(tape);
  return 3 * xs * xs * d;
}
double cube(double x) { return x * x * x; }

static double dcube(double x) { return __enzyme_autodiff((void *)cube, x); }

double second(double x) {
  return __enzyme_autodiff((void *)dcube, x);
  // CHECK: nested-reverse.c:[[#@LINE-1]]:10: error: cannot differentiate the derivative of 'cube' in reverse mode: 'cube_aug' returns a struct of floating-point values and pointers
}

// Batched gradients (enzyme_width) of a gradient.
static double f(double x, double y) { return x * x * y; }
static double dfdx(double x, double y) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, y);
}

void batched(double x, double y, double *out) {
  __enzyme_autodiff((void *)dfdx, enzyme_width, 2, x, y);
  // CHECK: nested-reverse.c:[[#@LINE-1]]:3: error: {{.*}}batched (width > 1) reverse mode over a reverse sweep is not supported yet
}

// A function of another file, called by code differentiated again.
double elsewhere(double x);
static double g(double x) { return elsewhere(x) * x; }
static double dg(double x) { return __enzyme_autodiff((void *)g, x); }

double second_elsewhere(double x) {
  return __enzyme_autodiff((void *)dg, x);
  // CHECK: nested-reverse.c:[[#@LINE-1]]:10: error: cannot differentiate the derivative of 'g' in reverse mode: 'elsewhere', defined in another file, is called by code that is itself differentiated in reverse mode again (reverse over reverse); define it in this file
}

// An inner split augmented sweep whose reverse sweep runs after the outer
// derivative returns (its tape handle kept in a global): the records would
// be read outside that derivative. Both sweeps inside work (e2e
// rev_over_rev_dynamics.c, split_orders.c).
void *__enzyme_augmentfwd(void *, ...);
static double cube2(double x) { return x * x * x; }
void *kept;
double keep_tape(double x) {
  kept = __enzyme_augmentfwd((void *)cube2, x);
  // SPLIT: nested-reverse.c:[[#@LINE-1]]:10: error: cannot differentiate 'keep_tape' in reverse mode: the reverse sweep (__enzyme_reverse) of an __enzyme_augmentfwd in 'keep_tape' does not run within it, so not within its derivative; run both sweeps inside the differentiated function
  return 2 * x;
}
double dkeep_tape(double x) { return __enzyme_autodiff((void *)keep_tape, x); }
