// What __enzyme_error_estimate cannot estimate is a located error, never a
// forward derivative passed off as an estimate: a function without a body,
// a registered forward derivative (tangents, not errors), a batch width.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_error_estimate(void *, ...);
extern int enzyme_width;
extern void *__enzyme_register_derivative_ruled[];

double unknown(double);
double ruled(double x) { return x * x; }
double ruled_tangent(double x, double dx) { return 2 * x * dx; }
void *__enzyme_register_derivative_ruled[] = {(void *)ruled,
                                              (void *)ruled_tangent};

double g(double x) {
  // CHECK-DAG: error-estimate.c:[[@LINE+1]]:10: error: {{.*}}cannot differentiate 'g' in forward-mode error estimation: no error estimation rule for 'unknown', whose body is not in this translation unit
  return unknown(x) * 2.0;
}
double a(double x) { return __enzyme_error_estimate((void *)g, x, 0.0); }

// CHECK-DAG: error-estimate.c:[[@LINE+1]]:29: error: 'ruled' has a registered derivative, which gives no error estimate
double b(double x) { return __enzyme_error_estimate((void *)ruled, x, 0.0); }

double uses_ruled(double x) {
  // CHECK-DAG: error-estimate.c:[[@LINE+1]]:10: error: {{.*}}in forward-mode error estimation: the registered derivative of 'ruled' gives tangents, not error estimates
  return ruled(x) + 1.0;
}
double c(double x) {
  return __enzyme_error_estimate((void *)uses_ruled, x, 0.0);
}

double square(double x) { return x * x; }
// CHECK-DAG: error-estimate.c:[[@LINE+1]]:29: error: __enzyme_error_estimate has no batched form: enzyme_width must be 1
double d(double x) { return __enzyme_error_estimate((void *)square, enzyme_width, 2, x, 1.0, 2.0); }

// (Its derivative would be made at link time: a forward derivative.)
double elsewhere(double);
// CHECK-DAG: error-estimate.c:[[@LINE+1]]:29: error: no error estimation rule for 'elsewhere', whose body is not in this translation unit
double e(double x) { return __enzyme_error_estimate((void *)elsewhere, x, 0.0); }
