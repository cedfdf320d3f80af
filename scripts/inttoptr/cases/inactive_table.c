/* False errors: an integer from an external call made into a pointer that
 * reads only integers and a constant table (must compile and be right). */
#include <math.h>
#include <stdint.h>
uintptr_t table_of(int k);
static double f(double *x) {
  const int *n = (const int *)table_of(0);
  const double *c = (const double *)table_of(1);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += c[i] * x[i] * n[i];
  return s;
}
#include "probe.h"
