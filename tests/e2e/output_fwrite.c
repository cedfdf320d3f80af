/* Reports written with fprintf of a string without conversions, which the
 * optimizer turns into fwrite (and fputc for one character) from -O1:
 * lmfit's lmmin2 prints its progress to a FILE * from its control struct,
 * and its derivatives were refused at -O1 and up ("the external function
 * 'fwrite' has no body and no derivative rule"). Output has no derivative:
 * fwrite and putc are inactive, as fprintf and fputs are. Both modes
 * against the analytic derivative. */
#include "check.h"

#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double steps(const double *x, FILE *log, int verbose) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    if (verbose)
      fprintf(log, "step\n");
    s += x[i] * x[i] * (i + 1);
    if (verbose) {
      fprintf(log, "%c", '.');
      putc('\n', log);
      fwrite(&s, sizeof s, 0, log);
    }
  }
  return s;
}

int main(void) {
  double x[3] = {0.5, -1.25, 2.0};
  for (int verbose = 0; verbose < 2; ++verbose) {
    double g[3] = {0};
    __enzyme_autodiff((void *)steps, enzyme_dup, x, g, enzyme_const, stderr,
                      enzyme_const, verbose);
    for (int i = 0; i < 3; ++i) {
      double d[3] = {0};
      d[i] = 1;
      double t = __enzyme_fwddiff((void *)steps, enzyme_dup, x, d,
                                  enzyme_const, stderr, enzyme_const, verbose);
      CHECK_CLOSE(g[i], 2 * (i + 1) * x[i], 1e-14);
      CHECK_CLOSE(t, 2 * (i + 1) * x[i], 1e-14);
    }
  }
  return check_finish();
}
