/* Reverse-mode derivatives declared with ADCC_REVERSE (<adcc.h>): the
 * derivative is callable without a prototype; Duplicated pointers receive
 * adjoints (+=), Active scalars' adjoints are returned after the primal
 * result (a struct with fields primal, d_<param> when there are several),
 * an Active result takes a seed as last parameter, a void primal with no
 * Active parameter gives a void derivative, and a hand-written prototype is
 * adopted when it matches. Checked against closed forms, central
 * differences and forward mode. */
#include "rev_check.h"

#include <adcc.h>

/* a hand-written prototype, as another translation unit would need */
double d_sumsin(const double *x, double *d_x, int n, double seed);

ADCC_REVERSE(d_sumsin, Duplicated, Const, Active)
double sumsin(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  return s;
}

ADCC_REVERSE(d_g, Active, Active, Active)
double g(double a, double b) { return a * exp(b) + b * b; }

ADCC_REVERSE(d_h, Duplicated, Active, Const, Active)
double h(const double *x, double a, double c) {
  return x[0] * a + x[1] * a * a * c;
}

ADCC_REVERSE(d_v, Duplicated, Duplicated)
void v(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[0]);
}

ADCC_REVERSE(d_only, Active, Const)
double only(double a) { return a * a * a; }

static double sumsin3(const double *x) { return sumsin(x, 3); }

int main(void) {
  /* Duplicated array, Active result with a seed of 2 */
  double x[3] = {0.5, 1.0, 2.0}, dx[3] = {0}, exact[3];
  double p = d_sumsin(x, dx, 3, 2.0);
  CHECK_CLOSE(p, sumsin(x, 3), 1e-15);
  for (int i = 0; i < 3; ++i) {
    exact[i] = 2 * (cos(x[i]) * x[i] + sin(x[i]));
    dx[i] /= 2;
    exact[i] /= 2;
  }
  CHECK_GRAD(sumsin3, x, 3, dx, exact);
  double v3[3] = {0.3, -0.2, 0.7}, dv3[3] = {0.3, -0.2, 0.7};
  CHECK_DOT(dx, v3, 3, __enzyme_fwddiff((void *)sumsin3, x, dv3));

  /* two Active parameters: struct result */
  __auto_type r = d_g(1.5, 0.5, 1.0);
  CHECK_CLOSE(r.primal, g(1.5, 0.5), 1e-15);
  CHECK_CLOSE(r.d_a, exp(0.5), 1e-14);
  CHECK_CLOSE(r.d_b, 1.5 * exp(0.5) + 1.0, 1e-14);

  /* Duplicated, Active and Const parameters; a 3-field result (returned
   * through memory) */
  double hx[2] = {1, 2}, dhx[2] = {0};
  __auto_type q = d_h(hx, dhx, 3.0, 0.5, 1.0);
  CHECK_CLOSE(q.primal, h(hx, 3.0, 0.5), 1e-15);
  CHECK_CLOSE(q.d_a, 1 + 2 * 2 * 3.0 * 0.5, 1e-14);
  CHECK_CLOSE(dhx[0], 3.0, 1e-15);
  CHECK_CLOSE(dhx[1], 9 * 0.5, 1e-15);

  /* void primal: adjoints of y flow back into x, y's adjoints are used */
  double vx[2] = {1, 2}, dvx[2] = {0}, vy[2], dvy[2] = {1, 1};
  d_v(vx, dvx, vy, dvy);
  CHECK_CLOSE(dvx[0], 2 + cos(1.0), 1e-15);
  CHECK_CLOSE(dvx[1], 1.0, 1e-15);
  CHECK_CLOSE(vy[0], 2.0, 1e-15);

  /* Const result: no seed, so the adjoint of a is zero */
  __auto_type o = d_only(2.0);
  CHECK_CLOSE(o.primal, 8.0, 0.0);
  CHECK_CLOSE(o.d_a, 0.0, 0.0);

  printf("d_sumsin: %.12g %.12g %.12g; d_g: %.12g %.12g\n", dx[0], dx[1], dx[2],
         r.d_a, r.d_b);
  return check_finish();
}
