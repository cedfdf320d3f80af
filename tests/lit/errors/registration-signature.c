// A registered derivative whose signature does not follow the convention
// (docs/custom-derivatives.md) is an error at the call it would replace.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

// Forward mode: the tangent parameter is missing.
__attribute__((noinline)) double k(double x) { return x * x; }
double k_fwd(double x) { return 2 * x; }
void *__enzyme_register_derivative_k[] = {(void *)k, (void *)k_fwd};

double f(double x) {
  // CHECK: registration-signature.c:[[@LINE+1]]:10: error: cannot differentiate 'f' in forward mode: the registered derivative 'k_fwd' does not have the expected signature
  return k(x);
}
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }

// Reverse mode: the augmented function returns another type.
__attribute__((noinline)) double p(double x) { return x * x; }
float p_aug(double x) { return (float)(x * x); }
double p_rev(double x, double d) { return 2 * x * d; }
void *__enzyme_register_gradient_p[] = {(void *)p, (void *)p_aug, (void *)p_rev};

double g(double x) {
  // CHECK: registration-signature.c:[[@LINE+1]]:10: error: cannot differentiate 'g' in reverse mode: the registered augmented function 'p_aug' does not have the expected signature (each pointer parameter followed by its shadow; returning the result, {void *tape, result}, {void *tape, result, shadow} or {result, shadow})
  return p(x) * 3;
}
double dg(double x) { return __enzyme_autodiff((void *)g, x); }

// Reverse mode: the reverse function lacks the adjoint of the result.
__attribute__((noinline)) double q(double x) { return x * x; }
double q_aug(double x) { return x * x; }
double q_rev(double x) { return 2 * x; }
void *__enzyme_register_gradient_q[] = {(void *)q, (void *)q_aug, (void *)q_rev};

double h(double x) {
  // CHECK: registration-signature.c:[[@LINE+1]]:10: error: cannot differentiate 'h' in reverse mode: the registered reverse function 'q_rev' does not have the expected signature (the augmented function's parameters, then the adjoint of a floating-point result, then the tape; returning the adjoints of the floating-point parameters)
  return q(x) * 3;
}
double dh(double x) { return __enzyme_autodiff((void *)h, x); }

// A request of the registered function itself: the error is at the request.
double m(double x, double y) { return x * y; }
double m_fwd(double x, double dx) { return dx; }
void *__enzyme_register_derivative_m[] = {(void *)m, (void *)m_fwd};
double dm(double x) {
  // CHECK: registration-signature.c:[[@LINE+1]]:10: error: cannot differentiate 'm' in forward mode: the registered derivative 'm_fwd' does not have the expected signature
  return __enzyme_fwddiff((void *)m, x, 1.0, 2.0, 0.0);
}

// Reverse mode: an augmented function that returns nothing (Enzyme's form
// for a result that is not a pointer) of a function that writes memory,
// whose result is used: adcc cannot run it again for the result.
double calls;
__attribute__((noinline)) double w(double x) { calls += 1; return x * x; }
void w_aug(double x) {}
double w_rev(double x, double d) { return 2 * x * d; }
void *__enzyme_register_gradient_w[] = {(void *)w, (void *)w_aug, (void *)w_rev};

double u(double x) {
  // CHECK: registration-signature.c:[[@LINE+1]]:10: error: cannot differentiate 'u' in reverse mode: the registered augmented function 'w_aug' does not return the result of 'w', which is used here, and that function may write memory, so it cannot run again for its result; return {void *tape, result} (or the result alone)
  return w(x) * 3;
}
double du(double x) { return __enzyme_autodiff((void *)u, x); }
