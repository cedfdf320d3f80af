/* enzyme_primal_return in reverse mode (Enzyme's ReverseWithPrimal): the
 * call returns {primal, adjoints of the enzyme_out arguments...} from one
 * run of the function, whose side effects happen once. */
#include "check.h"

extern int enzyme_primal_return, enzyme_const, enzyme_dup;
typedef struct {
  double primal, dx, dy;
} with_primal;
typedef struct {
  double primal, dx;
} with_primal1;
with_primal __enzyme_autodiff(void *, ...);
with_primal1 __enzyme_autodiff1(void *, ...);

static int calls;
static double f(double x, double y) {
  ++calls;
  return x * y * y + sin(x);
}
static double g(double x, double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * exp(x * w[i]);
  return s;
}

int main(void) {
  double x = 0.7, y = -1.3;
  with_primal r = __enzyme_autodiff((void *)f, enzyme_primal_return, x, y);
  CHECK_CLOSE(r.primal, x * y * y + sin(x), 1e-15);
  CHECK_CLOSE(r.dx, y * y + cos(x), 1e-14);
  CHECK_CLOSE(r.dy, 2 * x * y, 1e-14);
  CHECK_TRUE(calls == 1); /* f ran once: in the augmented sweep */
  double w[3] = {0.5, -1, 2}, dw[3] = {0, 0, 0};
  with_primal1 s =
      __enzyme_autodiff1((void *)g, enzyme_primal_return, x, enzyme_dup, w, dw,
                         enzyme_const, 3);
  double want = 0, wantdx = 0;
  for (int i = 0; i < 3; ++i) {
    want += w[i] * exp(x * w[i]);
    wantdx += w[i] * w[i] * exp(x * w[i]);
    CHECK_CLOSE(dw[i], exp(x * w[i]) * (1 + x * w[i]), 1e-14);
  }
  CHECK_CLOSE(s.primal, want, 1e-14);
  CHECK_CLOSE(s.dx, wantdx, 1e-14);
  return check_finish();
}
