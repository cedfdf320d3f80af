// Forward over reverse through a global variable: the outer derivative's
// shadow of the global would be the shadow global the inner one already
// uses. An error at the outer request, never a wrong second derivative.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double state;
static double f(double x) { state = x * x; return state * x; }
static double df(double x) { return __enzyme_autodiff((void *)f, x); }
// (At the outer request, naming the user's function.)
// CHECK: global-shadows-nested.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate the derivative of 'f' in forward mode: a global variable whose shadow global the derivative being differentiated already uses ('state_shadow') is differentiated again; higher derivatives through global variables are not supported yet
double ddf(double x) { return __enzyme_fwddiff((void *)df, x, 1.0); }
// CHECK-NOT: Stack dump
