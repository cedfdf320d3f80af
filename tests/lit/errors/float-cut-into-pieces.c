// A float cut into integer pieces that together hold all its bits (the
// last residual cut too, as fdlibm's __kernel_rem_pio2 cuts a large
// argument into 24-bit pieces), each converted back to a float: the
// conversions to integers carry no derivative, and until 2026-12-06 the
// pieces rebuilt x with a derivative of 0, silently (3 * x here: (0, 0)
// instead of (3, 3)); then it was an error, which refused sin and cos for
// every argument, although only |x| >= 2^20 pi/2 reaches the cut. Now the
// derivatives stop the program where the cut runs (adcc_derivative_stopped,
// e2e rev_float_pieces_stop.c), with one warning at the cut for both modes
// at every level (an error with -Werror). Cut the same way but with the
// last residual kept as a float (rem_pio2's own cut, KEPT), the residual
// carries the derivative: no warning.
// RUN: %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %adcc -O2 -Werror -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: %adcc -O0 -DKEPT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEPT --allow-empty
// RUN: %adcc -O2 -DKEPT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEPT --allow-empty
// KEPT-NOT: {{error|warning}}
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifndef KEPT
__attribute__((noinline)) double pieces(double x) {
  int hi = (int)x;
  double f = (x - hi) * 0x1p24;
  int mid = (int)f;
  f = (f - mid) * 0x1p24;
  // CHECK: float-cut-into-pieces.c:[[@LINE+2]]:12: warning: the derivative of 'pieces' stops the program where this runs: a floating-point value is cut into integer pieces that together hold all its bits
  // WERROR: float-cut-into-pieces.c:[[@LINE+1]]:12: error: the derivative of 'pieces' stops the program where this runs
  int lo = (int)f;
  return 3.0 * ((double)hi + (double)mid * 0x1p-24 + (double)lo * 0x1p-48);
}
#else
__attribute__((noinline)) double pieces(double x) {
  double t[3], z = x;
  for (int i = 0; i < 2; ++i) {
    t[i] = (double)(int)z;
    z = (z - t[i]) * 0x1p24;
  }
  t[2] = z;
  return 3.0 * (t[0] + t[1] * 0x1p-24 + t[2] * 0x1p-48);
}
#endif

double gradients(double x) {
  return __enzyme_autodiff((void *)pieces, x) +
         __enzyme_fwddiff((void *)pieces, x, 1.0);
}
