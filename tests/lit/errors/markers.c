// Activity markers: unknown names, markers in the wrong place or the wrong
// mode, and a marker's value of the wrong kind for the parameter. Each is an
// error at the request (file:line:column), exit status 1.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_dupv, enzyme_out, enzyme_const, enzyme_foo;

double f(double x, double y) { return x * y; }
double g(double *x) { return *x * *x; }
double h(int n, double x) { return n * x; }

// CHECK: markers.c:[[@LINE+1]]:29: error: unknown Enzyme marker 'enzyme_foo'
double a(double x) { return __enzyme_autodiff((void *)f, enzyme_foo, x, 2.0); }

// enzyme_out is a reverse-mode activity for floating-point values.
// CHECK: markers.c:[[@LINE+1]]:30: error: argument 1 of 'g' has type pointer; enzyme_out is for floating-point values (use enzyme_dup for pointers)
double b(double *x) { return __enzyme_autodiff((void *)g, enzyme_out, x); }
// CHECK: markers.c:[[@LINE+1]]:29: error: enzyme_out (an active output) is only valid in reverse mode; forward mode uses enzyme_dup
double c(double x) { return __enzyme_fwddiff((void *)f, enzyme_out, x, enzyme_const, 2.0); }

// enzyme_dup gives a shadow: in reverse mode only pointers have one.
// CHECK: markers.c:[[@LINE+1]]:29: error: argument 1 of 'f' has type double; in reverse mode enzyme_dup is for pointers, a floating-point value is passed with enzyme_out
double d(double x) { return __enzyme_autodiff((void *)f, enzyme_dup, x, x, 1.0); }
// CHECK: markers.c:[[@LINE+1]]:26: error: argument 1 of 'h' has type 32-bit integer, which carries no derivative; pass it with enzyme_const
double e(int n) { return __enzyme_fwddiff((void *)h, enzyme_dup, n, 1, 2.0, 1.0); }

// enzyme_dupv needs a byte stride, then the shadows' array.
// CHECK: markers.c:[[@LINE+1]]:30: error: enzyme_dupv must be followed by an integer byte stride
double i(double *x) { return __enzyme_fwddiff((void *)g, enzyme_dupv, 1.5, x, x); }

// A value that cannot become the parameter's type.
// CHECK: markers.c:[[@LINE+1]]:29: error: argument 1 of 'g' has type double, but the function expects pointer
double j(double x) { return __enzyme_fwddiff((void *)g, enzyme_const, x); }

// Enzyme's run-time activity (a shadow that may be its primal) works in
// whole derivative calls (e2e compat_runtime_activity.c); in split mode,
// whose sweeps run apart, it is an error, not derivatives that assume
// separate memory.
extern int enzyme_runtime_activity;
void *__enzyme_augmentfwd(void *, ...);
void *runtime_activity(double *x) {
  // CHECK: markers.c:[[@LINE+1]]:10: error: enzyme_runtime_activity is supported only in a whole derivative call (__enzyme_autodiff, __enzyme_fwddiff) on the host, not in split mode, device code or a call that may throw; pass the inactive argument enzyme_const instead
  return __enzyme_augmentfwd((void *)g, enzyme_runtime_activity, x, x);
}
