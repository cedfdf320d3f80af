// Malformed registrations and mismatched custom-rule signatures are errors,
// never aborts.
// RUN: not %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: malformed registration '__enzyme_register_gradient_g': expected {(void *)function, (void *)augmented, (void *)reverse}
// CHECK-DAG: error: malformed registration '__enzyme_register_derivative_h': expected {(void *)function, (void *)derivative}
// CHECK-DAG: malformed.c:[[@LINE+15]]:{{[0-9]+}}: error: cannot differentiate 'f' in forward mode: the registered derivative 'k_fwd' does not have the expected signature
// CHECK-NOT: Stack dump
double __enzyme_fwddiff(void *, ...);
double g(double x) { return x; }
double h(double x) { return x; }
void *__enzyme_register_gradient_g[] = {(void *)g, (void *)g};
int not_a_function;
void *__enzyme_register_derivative_h[] = {(void *)h, (void *)&not_a_function};

__attribute__((noinline)) double k(double x) { return x * x; }
double k_fwd(double x) { return 2 * x; } // the tangent parameter is missing
void *__enzyme_register_derivative_k[] = {(void *)k, (void *)k_fwd};

double f(double x) {
  double y = g(x) + h(x);
  return k(y);
}
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
