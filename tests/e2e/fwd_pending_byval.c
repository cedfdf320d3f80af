/* PENDING (not registered): structs passed by value that the x86-64 ABI
 * splits into two IR parameters are paired with their shadows per IR
 * parameter, not per C argument.
 * - {double, double} and {float, double}: WRONG value, silently; (s.a, s.b,
 *   ds.a, ds.b) is read as (a, da, b, db): 9 instead of 63.
 * - {float, float, float} (<2 x float>, float) and {double, int}
 *   (double, i32): rejected with IR-level wording ("the shadow of argument
 *   1 of 'f_f3' has type float, but the function expects <2 x float>";
 *   "... 'f_di' has type i32, but the function expects double").
 * {float, float} (one <2 x float>) and structs passed in memory work. */
#include "fwd_check.h"

float __enzyme_fwddiff_f(void *, ...);

typedef struct {
  float a, b, c;
} F3;
typedef struct {
  double a;
  int n;
} DI;
typedef struct {
  double a, b;
} DD;
static double f_dd(DD p) { return p.a * p.b * p.b; }
typedef struct {
  float a;
  double b;
} FD;
static double f_fd(FD p) { return p.a * p.b * p.b; }
static float f_f3(F3 p) { return p.a * p.b * p.c; }
static double f_di(DI p) { return p.a * p.a * p.n; }

int main(void) {
  DD t = {2, 7}, dt = {1, 0.5};
  CHECK_CLOSE(__enzyme_fwddiff((void *)f_dd, t, dt), 49.0 + 14.0,
              FWD_TOL_EXACT);
  FD s = {2, 7}, ds = {1, 0.5};
  CHECK_CLOSE(__enzyme_fwddiff((void *)f_fd, s, ds), 49.0 + 14.0,
              FWD_TOL_EXACT);
  F3 q = {2, 3, 4}, dq = {0, 0, 1};
  CHECK_CLOSE(__enzyme_fwddiff_f((void *)f_f3, q, dq), 6.0, 1e-7);
  DI r = {3, 5}, dr = {1, 0};
  CHECK_CLOSE(__enzyme_fwddiff((void *)f_di, r, dr), 30.0, FWD_TOL_EXACT);
  return check_finish();
}
