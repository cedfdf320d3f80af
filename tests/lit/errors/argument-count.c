// Too few or too many arguments for the function to differentiate: one per
// parameter, each followed by its shadow when duplicated. The message says
// what is missing. A call with no function at all is clang's own error.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -c -DNO_FUNCTION %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLANG
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double f(double x, double y) { return x * y; }
double g(double *x) { return *x * *x; }

#ifdef NO_FUNCTION
// CLANG: argument-count.c:[[@LINE+1]]:46: error: too few arguments to function call, expected at least 1, have 0
double none(void) { return __enzyme_autodiff(); }
#else
// CHECK: argument-count.c:[[@LINE+1]]:29: error: too few arguments to __enzyme_autodiff for 'f': missing the value of argument 2
double a(double x) { return __enzyme_autodiff((void *)f, x); }
// CHECK: argument-count.c:[[@LINE+1]]:29: error: too many arguments to __enzyme_autodiff for 'f': it takes 2 parameters, each followed by its shadow(s) when duplicated
double b(double x) { return __enzyme_autodiff((void *)f, x, x, x); }
// CHECK: argument-count.c:[[@LINE+1]]:30: error: too few arguments to __enzyme_autodiff for 'g': missing the shadow of argument 1
double c(double *x) { return __enzyme_autodiff((void *)g, enzyme_dup, x); }
// CHECK: argument-count.c:[[@LINE+1]]:29: error: too few arguments to __enzyme_autodiff for 'f': missing the value of argument 1
double d(double x) { return __enzyme_autodiff((void *)f, enzyme_const); }
// CHECK: argument-count.c:[[@LINE+1]]:29: error: too few arguments to __enzyme_fwddiff for 'f': missing the shadow of argument 1
double e(double x) { return __enzyme_fwddiff((void *)f, x); }
// CHECK: argument-count.c:[[@LINE+1]]:29: error: too many arguments to __enzyme_fwddiff for 'f': it takes 2 parameters, each followed by its shadow(s) when duplicated
double h(double x) { return __enzyme_fwddiff((void *)f, x, 1.0, 2.0, 0.0, 4.0); }
#endif
