// A registered derivative whose signature does not follow the convention is
// an error at the call it would replace.
// RUN: not %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: signature.c:[[@LINE+9]]:10: error: cannot differentiate 'f' in forward mode: the registered derivative 'k_fwd' does not have the expected signature
// CHECK-NOT: Stack dump
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double k(double x) { return x * x; }
double k_fwd(double x) { return 2 * x; } // the tangent parameter is missing
void *__enzyme_register_derivative_k[] = {(void *)k, (void *)k_fwd};

double f(double x) {
  return k(x);
}
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
