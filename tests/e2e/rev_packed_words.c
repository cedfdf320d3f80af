/* Structs of a float and an int (or two floats, a double and an int) that
 * -O1 and above move as one 64-bit integer: copied whole from a global
 * array and also read (`out[k] = table[j]`, the i64 loaded once, stored and
 * cut into its fields), and returned by value by helpers that are not
 * inlined (x86-64 returns `{float f; int i;}` and `{int n; float v;}` in
 * one integer register). The array copies were "floating-point values are
 * read out of the bits of an integer" from -O2, the results "integer bits
 * reinterpreted as a floating-point value" (or "returns the bits of a
 * floating-point value") at every level, both modes, until 2026-12-07.
 * The gradient by reverse mode against analytic values and central
 * differences, forward mode against reverse. */
#include "check.h"
#include "gradient_check.h"

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  float f;
  int i;
} FI;

typedef struct {
  int n;
  float v;
} IF;

typedef struct {
  float a, b;
} FF;

typedef struct {
  double d;
  int k;
} DI;

FI fi_table[4], fi_out[4];
FF ff_table[4], ff_out[4];
DI di_table[4], di_out[4];

__attribute__((noinline)) static FI make_fi(double a, double b) {
  FI s = {(float)(a * b), 3};
  return s;
}

__attribute__((noinline)) static IF make_if(double a) {
  IF s = {-2, (float)(a * a)};
  return s;
}

__attribute__((noinline)) static FF make_ff(double a, double b) {
  FF s = {(float)a, (float)(a * b)};
  return s;
}

__attribute__((noinline)) static DI make_di(double a) {
  DI s = {a * a, 4};
  return s;
}

double f(const double *x) {
  for (int j = 0; j < 4; ++j) {
    fi_table[j].f = (float)(x[0] * (j + 1));
    fi_table[j].i = j + 1;
    ff_table[j].a = (float)(x[1] * (j + 1));
    ff_table[j].b = (float)x[0];
    di_table[j].d = x[2] * (j + 1);
    di_table[j].k = j + 1;
  }
  for (int k = 0; k < 4; ++k) {
    fi_out[k] = fi_table[3 - k];
    ff_out[k] = ff_table[3 - k];
    di_out[k] = di_table[3 - k];
  }
  /* 30 x0 x1 + 10 x0 x1 + 30 x0 x2 */
  double g = 0;
  for (int k = 0; k < 4; ++k)
    g += fi_out[k].f * fi_out[k].i * x[1] + ff_out[k].a * ff_out[k].b +
         di_out[k].d * di_out[k].k * x[0];
  /* 3 x0 x1 x2 - 2 x0^2 + x0^2 x1 + 4 x0^2 */
  FI s = make_fi(x[0], x[1]);
  IF t = make_if(x[0]);
  FF u = make_ff(x[0], x[1]);
  DI v = make_di(x[0]);
  return g + s.f * s.i * x[2] + t.v * t.n + u.a * u.b + v.d * v.k;
}

int main(void) {
  double x[3] = {0.5, 1.5, -2.5}, g[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  /* analytic (every float here holds its value exactly) */
  double want[3] = {40 * x[1] + 30 * x[2] + 3 * x[1] * x[2] + 4 * x[0] +
                        2 * x[0] * x[1],
                    40 * x[0] + 3 * x[0] * x[2] + x[0] * x[0],
                    30 * x[0] + 3 * x[0] * x[1]};
  CHECK_GRADIENT(f, x, g, want, 3, 1e-3, 1e-3);
  return check_finish();
}
