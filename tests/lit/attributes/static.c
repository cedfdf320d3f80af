// A static (or static inline) primal gets a static derivative: called in the
// file, it is not reported as used but not defined (adcc defines it), and
// the primal is not reported unused.
// RUN: %adcc -fsyntax-only -Xclang -verify -Wall -Wextra -Wundefined-internal %s
// RUN: %adcc -fsyntax-only -Xclang -verify -Weverything %s
// RUN: %adcc -fsyntax-only -Xclang -ast-print %s -o - | FileCheck %s
// RUN: %adcc++ -x c++ -fsyntax-only -Xclang -verify -Wall -Wextra -Wundefined-internal %s
// expected-no-diagnostics
#include <adcc.h>

// CHECK: static struct __adcc_d_s_result d_s(double x, double d_x);
static ADCC_FORWARD(d_s, Dual, Dual) double s(double x) { return 3 * x * x; }
// CHECK: static double d_i(double x, double d_x);
static inline ADCC_FORWARD(d_i, Dual, DualOnly) double in(double x) { return 2 * x; }
// CHECK: static double d_unused(double x, double d_x);
static ADCC_FORWARD(d_unused, Dual, DualOnly) double unused(double x) { return x; }

double use(void);
double use(void) { return d_s(2, 1).d_return + d_i(1, 1); }
