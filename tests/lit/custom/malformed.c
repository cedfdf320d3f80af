// Malformed registrations are errors at their source location.
// RUN: not %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: malformed.c:[[@LINE+7]]:7: error: malformed registration '__enzyme_register_gradient_g': expected {(void *)function, (void *)augmented, (void *)reverse} (3 elements)
// CHECK: malformed.c:[[@LINE+10]]:43: error: malformed registration '__enzyme_register_derivative_h': element 2 must be the address of a function
// CHECK: malformed.c:[[@LINE+12]]:49: error: malformed registration '__enzyme_function_like_q': element 2 must be a string naming a math function
// CHECK-NOT: Stack dump
double __enzyme_fwddiff(void *, ...);
double g(double x) { return x; }
double h(double x) { return x; }
void *__enzyme_register_gradient_g[] = {(void *)g, (void *)g};

int not_a_function;
void *__enzyme_register_derivative_h[] = {(void *)h,
                                          (void *)&not_a_function};

double q(double x) { return x; }
void *__enzyme_function_like_q[2] = {(void *)q, (void *)q};
