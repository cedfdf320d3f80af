/* The checks shared by the Rodinia drivers (rodinia.sh): a derivative
 * against its expected value, to a tolerance relative to the expected
 * value plus a scale (most Rodinia programs compute in float, and a
 * derivative near zero is then checked against the gradient's size). Each
 * driver prints one line per check and a last line "ok ..." or "FAIL ...". */
#ifndef ADCC_RODINIA_CHECK_H
#define ADCC_RODINIA_CHECK_H

#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const, enzyme_out;

static int rodinia_failures = 0;

static void rodinia_check(const char *what, double got, double want,
                          double tol, double scale) {
  int ok = fabs(got - want) <= tol * (fabs(want) + scale) && isfinite(got);
  printf("%s: %.9g, expected %.9g%s\n", what, got, want, ok ? "" : "  FAIL");
  rodinia_failures += !ok;
}

static int rodinia_done(const char *program) {
  printf("%s (%s)\n", rodinia_failures ? "FAIL" : "ok", program);
  return rodinia_failures ? 1 : 0;
}

#endif
