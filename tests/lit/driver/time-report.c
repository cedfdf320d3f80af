// -ftime-report times the frontend and the passes, the AD pass among them,
// as clang does (it used to crash: the in-process cc1 had no frontend
// timer).
// RUN: %expect-exit 0 %adcc -O2 -c -ftime-report %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: Clang time report
// CHECK-DAG: adcore::ADPass
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
static double sq(const double *x) { return x[0] * x[0]; }
void grad(const double *x, double *dx) { __enzyme_autodiff((void *)sq, x, dx); }
