// A derivative made at link time may use a static variable of the other
// file that nothing in the program writes or takes the address of: every
// copy holds its initial value. fdlibm's `static volatile double tiny`
// and `twom1000` (openlibm's e_exp.c, scripts/realcode/libm.sh) were
// refused as "a static variable of the file that defines the function"
// until 2026-12-06. A static the file writes and reads is the program's
// own through the name its file exports (cross-tu-static-variables.c);
// a thread-local one stays an error (errors/cross-tu.c).
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c -o lib.o && %adcc -O0 main.c lib.o -o prog && ./prog
// RUN: %adcc -O2 -c lib.c -o lib.o && %adcc -O2 main.c lib.o -o prog && ./prog
// RUN: %adcc -O2 -DWRITTEN lib.c main.c -o prog && ./prog

//--- lib.c
static volatile double tiny = 1e-300;
static double scale = 3.0;
#ifdef WRITTEN
void set_tiny(double t) { tiny = t; }
#endif
double damped(double x) {
  if (x < tiny) // (a volatile load: never constant-folded)
    return 0;
  return scale * x * x + tiny;
}

//--- main.c
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double damped(double x);
int main(void) {
  double r = __enzyme_autodiff((void *)damped, 2.0);
  double t = __enzyme_fwddiff((void *)damped, 2.0, 1.0);
  double h = 1e-6;
  double d = (damped(2.0 + h) - damped(2.0 - h)) / (2 * h);
  printf("%g %g %g\n", r, t, d);
  return !(r == 12.0 && t == 12.0 && fabs(d - 12.0) < 1e-6);
}
