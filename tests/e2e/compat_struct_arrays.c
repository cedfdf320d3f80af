/* A memcpy of an array of structs that hold a double array read at a
 * variable index next to an int (struct { double a[4]; int k; }), of a
 * number of elements known only at run time: the type analysis sees
 * "doubles at every offset, an int at 32" and the element's size from the
 * declared struct; the adjoints of the four doubles of each element are
 * carried back through the copy (it was refused at -O1 and above).
 * Checked against an analytic gradient, central differences, and forward
 * mode (dot-product test). */
#include "rev_check.h"

#include <string.h>

enum { Cells = 5 };
typedef struct {
  double a[4];
  int k;
} cell;

/* Known only at run time, so that the copy's length is too. */
static int count = Cells;

static double copied(const double *x) {
  cell in[Cells], out[Cells];
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < 4; ++j)
      in[i].a[j] = x[i] * (j + 1) + x[(i + 1) % Cells];
    in[i].k = (3 * i) % 4;
  }
  memcpy(out, in, sizeof(cell) * (size_t)count);
  double s = 0;
  for (int i = 0; i < count; ++i)
    s += out[i].a[out[i].k] * out[i].a[0];
  return s;
}

/* d/dx of sum_i (x_i (k_i + 1) + x_{i+1}) (x_i + x_{i+1}) */
static void copied_gradient(const double *x, double *g) {
  for (int i = 0; i < Cells; ++i)
    g[i] = 0;
  for (int i = 0; i < Cells; ++i) {
    int n = (i + 1) % Cells, k = (3 * i) % 4;
    double u = x[i] * (k + 1) + x[n], v = x[i] + x[n];
    g[i] += (k + 1) * v + u;
    g[n] += v + u;
  }
}

int main(void) {
  CHECK_GRAD_AND_DOT(copied, Cells, 1.0);
  double x[Cells] = {0.3, -1.2, 2.0, 0.7, 1.1}, g[Cells] = {0}, want[Cells];
  __enzyme_autodiff((void *)copied, x, g);
  copied_gradient(x, want);
  for (int i = 0; i < Cells; ++i)
    CHECK_CLOSE(g[i], want[i], REV_TOL_EXACT);
  return check_finish();
}
